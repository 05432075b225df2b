import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST_NOT_FOUND, REPLY_NOT_FOUND, SUSPENDED, THREAD_LOCKED } from '../../common/community.contract.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import type { Viewer } from '../../common/viewer.ts';
import { communityReports, members } from '../../db/schema.ts';
import { lastAuditEntry, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// Staff's side of the community: the report queue, every discussion, and moderation, each change in the activity log.

const t = serviceTestApp();
let editor: Viewer;
beforeAll(async () => {
  editor = await t.asStaff('editor');
});

const community = () => t.app.services.community;
const moderation = () => t.app.services.communityModeration;
let numbered = 0;
/** A new discussion in this space by a new member, with one reply by another. */
async function discussion(space: 'general' | 'gold' = 'general') {
  const author = await t.asMember(space === 'gold' ? 'gold' : 'silver', { name: `Author ${++numbered}` });
  const post = await community().createPost(author, { title: `Discussion ${numbered}`, body: 'What works for you?', space });
  const replier = await t.asMember('gold', { name: `Replier ${numbered}` });
  const reply = await community().reply(replier, post.id, { body: 'Door knocking, every Saturday.' });
  return { author, post, replier, reply };
}

describe('who moderates', () => {
  it('refuses visitors (401) and members, Gold included (403), for every moderation call, changing nothing', async () => {
    const { author, post, reply } = await discussion();
    for (const viewer of [t.asVisitor(), await t.asMember('gold')]) {
      const status = viewer.member ? 403 : 401;
      for (const call of [
        moderation().reports(viewer, {}),
        moderation().discussions(viewer, {}),
        moderation().moderatePost(viewer, post.id, 'hide'),
        moderation().moderateReply(viewer, reply.id, 'delete'),
        moderation().resolveReport(viewer, '00000000-0000-4000-8000-000000000000'),
        moderation().suspend(viewer, author.member.id, true),
      ])
        expect((await refusal(call)).status).toBe(status);
    }
    expect((await community().post(author, post.id)).post).toMatchObject({ id: post.id, replies_count: 1 });
  });
});

describe('discussions', () => {
  it('hides a post from everyone but staff, deals with its reports, records it, and brings it back on unhide', async () => {
    const { author, post } = await discussion();
    const reporter = await t.asMember('free', { name: 'Careful Reader' });
    await community().report(reporter, { post_id: post.id, reason: 'Spam' });
    const queued = (await moderation().reports(editor, {})).items.find((report) => report.post_id === post.id);
    expect(queued).toMatchObject({
      reply_id: null,
      reporter_name: 'Careful Reader',
      author_name: author.member.name,
      reason: 'Spam',
      hidden: false,
    });

    await moderation().moderatePost(editor, post.id, 'hide');
    expect(await refusal(community().post(author, post.id))).toEqual({ status: 404, message: POST_NOT_FOUND });
    const listed = await moderation().discussions(editor, { search: post.title });
    expect(listed.items).toEqual([expect.objectContaining({ id: post.id, hidden: true })]);
    expect((await moderation().reports(editor, {})).items.some((report) => report.post_id === post.id)).toBe(false);
    const [report] = await t.db.select().from(communityReports).where(eq(communityReports.postId, post.id));
    expect(report?.resolvedBy).toBe(editor.staff!.email);
    expect(await lastAuditEntry(t, { action: 'community.post.hide' })).toMatchObject({
      actorEmail: editor.staff!.email,
      target: post.title,
      oldValue: post.id,
      newValue: author.member.name,
      subjectMemberId: author.member.id,
    });

    await moderation().moderatePost(editor, post.id, 'unhide');
    expect((await community().post(author, post.id)).post.id).toBe(post.id);
  });

  it(`pins at most ${PAGE_SIZE.communityPinned} discussions per space, counting a re-pin once`, async () => {
    const pinned = [];
    for (let index = 0; index < PAGE_SIZE.communityPinned; index++) {
      const { post } = await discussion('gold');
      await moderation().moderatePost(editor, post.id, 'pin');
      pinned.push(post.id);
    }
    await moderation().moderatePost(editor, pinned[0]!, 'pin');
    const { post: oneMore } = await discussion('gold');
    expect(await refusal(moderation().moderatePost(editor, oneMore.id, 'pin'))).toEqual({
      status: 409,
      message: `At most ${PAGE_SIZE.communityPinned} discussions can be pinned in a space. Unpin one first.`,
    });
    const { post: general } = await discussion('general');
    await moderation().moderatePost(editor, general.id, 'pin');
    await moderation().moderatePost(editor, pinned[1]!, 'unpin');
    await moderation().moderatePost(editor, oneMore.id, 'pin');
    const { posts } = await community().feed(await t.asMember('gold'), { space: 'gold', sort: 'newest' });
    expect(posts.filter((post) => post.pinned).map((post) => post.id)).toHaveLength(PAGE_SIZE.communityPinned);
    expect(posts.find((post) => post.id === oneMore.id)?.pinned).toBe(true);
  });

  it('never passes the cap when pins race, and brings a hidden pinned post back unpinned once the space is full', async () => {
    const reader = await t.asMember('silver');
    const pinnedNow = async () =>
      (await community().feed(reader, { space: 'general', sort: 'newest' })).posts.filter((post) => post.pinned).map((post) => post.id);
    const { post: hiddenPin } = await discussion('general');
    await moderation().moderatePost(editor, hiddenPin.id, 'pin');
    await moderation().moderatePost(editor, hiddenPin.id, 'hide');
    const candidates = [];
    for (let index = 0; index < PAGE_SIZE.communityPinned + 2; index++) candidates.push((await discussion('general')).post.id);
    await Promise.allSettled(candidates.map((id) => moderation().moderatePost(editor, id, 'pin')));
    expect(await pinnedNow()).toHaveLength(PAGE_SIZE.communityPinned);

    await moderation().moderatePost(editor, hiddenPin.id, 'unhide');
    expect(await pinnedNow()).toHaveLength(PAGE_SIZE.communityPinned);
    expect((await community().post(reader, hiddenPin.id)).post.pinned).toBe(false);
  });

  it('locks and unlocks replies, deletes for good, and answers 404 for a discussion that is not there', async () => {
    const { post, replier } = await discussion();
    await moderation().moderatePost(editor, post.id, 'lock');
    expect(await refusal(community().reply(replier, post.id, { body: 'Still open?' }))).toEqual({ status: 409, message: THREAD_LOCKED });
    await moderation().moderatePost(editor, post.id, 'unlock');
    await community().reply(replier, post.id, { body: 'Open again.' });
    await moderation().moderatePost(editor, post.id, 'delete');
    expect(await refusal(moderation().moderatePost(editor, post.id, 'unhide'))).toEqual({ status: 404, message: POST_NOT_FOUND });
    expect(await lastAuditEntry(t, { action: 'community.post.delete' })).toMatchObject({ target: post.title, oldValue: post.id });
  });
});

describe('replies and reports', () => {
  it('hides a reply from the thread and its count, resolves its reports, and unhides it without reopening them', async () => {
    const { author, post, replier, reply } = await discussion();
    await community().report(author, { post_id: post.id, reply_id: reply.id, reason: 'Rude' });
    await moderation().moderateReply(editor, reply.id, 'hide');
    const hidden = await community().post(author, post.id);
    expect(hidden.post.replies_count).toBe(0);
    expect(hidden.replies).toEqual([]);
    expect((await moderation().reports(editor, {})).items.some((report) => report.reply_id === reply.id)).toBe(false);
    expect(await lastAuditEntry(t, { action: 'community.reply.hide' })).toMatchObject({
      target: replier.member.name,
      oldValue: 'Door knocking, every Saturday.',
      newValue: post.id,
      subjectMemberId: replier.member.id,
    });

    await moderation().moderateReply(editor, reply.id, 'unhide');
    expect((await community().post(author, post.id)).post.replies_count).toBe(1);
    const [report] = await t.db.select().from(communityReports).where(eq(communityReports.replyId, reply.id));
    expect(report?.resolvedAt).not.toBeNull();
    await moderation().moderateReply(editor, reply.id, 'delete');
    expect(await refusal(moderation().moderateReply(editor, reply.id, 'hide'))).toEqual({ status: 404, message: REPLY_NOT_FOUND });
  });

  it('dismisses a report once, recording it; a second time is a 404', async () => {
    const { post } = await discussion();
    await community().report(await t.asMember('bronze'), { post_id: post.id, reason: 'Off topic' });
    const report = (await moderation().reports(editor, {})).items.find((each) => each.post_id === post.id)!;
    await moderation().resolveReport(editor, report.id);
    expect((await moderation().reports(editor, {})).items.some((each) => each.id === report.id)).toBe(false);
    expect(await lastAuditEntry(t, { action: 'community.report.dismiss' })).toMatchObject({
      actorEmail: editor.staff!.email,
      target: report.id,
    });
    expect(await refusal(moderation().resolveReport(editor, report.id))).toEqual({
      status: 404,
      message: 'Report not found, or already dealt with',
    });
  });
});

describe('suspension', () => {
  it('stops a member posting from their next request, shows it on reports about them, and lifts it; each change is recorded', async () => {
    const login = await t.loginAs('gold');
    const post = await community().createPost(await t.viewerOf(login.token), { title: 'Before', body: 'Fine so far', space: 'general' });
    await community().report(await t.asMember('bronze'), { post_id: post.id, reason: 'Heated' });
    await moderation().suspend(editor, login.memberId, true);

    const refused = refusal(community().createPost(await t.viewerOf(login.token), { title: 'After', body: 'Let me in', space: 'general' }));
    expect(await refused).toEqual({ status: 403, message: SUSPENDED });
    expect((await moderation().reports(editor, {})).items.find((report) => report.post_id === post.id)?.author_suspended).toBe(true);
    expect(await lastAuditEntry(t, { action: 'community.suspend' })).toMatchObject({
      target: login.email,
      oldValue: false,
      newValue: true,
    });

    await moderation().suspend(editor, login.memberId, false);
    const [account] = await t.db.select().from(members).where(eq(members.id, login.memberId));
    expect(account?.communitySuspendedAt).toBeNull();
    await community().createPost(await t.viewerOf(login.token), { title: 'After', body: 'Back again', space: 'general' });
    expect(await lastAuditEntry(t, { action: 'community.unsuspend' })).toMatchObject({
      target: login.email,
      oldValue: true,
      newValue: false,
    });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await refusal(moderation().suspend(editor, unknown, true))).toEqual({ status: 404, message: 'Member not found' });
  });
});
