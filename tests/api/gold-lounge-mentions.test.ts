import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLD_SPACE_ONLY, UPGRADE_TO_PARTICIPATE } from '../../common/community.contract.ts';
import type { NotificationPage } from '../../common/notifications.contract.ts';
import { communityPosts, communityReplies, notifications, outboxMessages } from '../../db/schema.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The Gold Lounge (the community's `gold` space) is for Gold members: an @mention there reaches a
// Gold member named, and tells a member who is not Gold nothing at all, not even that it exists.

let t: TestApp;
let host: MemberLogin;
let goldNamed: MemberLogin;
let silverNamed: MemberLogin;
let bronzeNamed: MemberLogin;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  host = await t.loginAs('gold', { name: 'Hana Host' });
  goldNamed = await t.loginAs('gold', { name: 'Gina Lounge' });
  silverNamed = await t.loginAs('silver', { name: 'Sam Outside' });
  bronzeNamed = await t.loginAs('bronze', { name: 'Bo Outside' });
});
afterAll(() => t.close());

const send = (who: MemberLogin, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });
const MENTIONS = 'Listing secrets for @Gina Lounge, @Sam Outside and @Bo Outside.';

/** Every notification stored for a member (shown or not), and every mail queued to them. */
const storedFor = async (who: MemberLogin) => ({
  notifications: await t.db.select().from(notifications).where(eq(notifications.memberId, who.memberId)),
  mails: await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, who.email)),
});
const bell = async (who: MemberLogin) => (await send(who, 'GET', '/api/notifications')).json<NotificationPage>();

async function loungePost(title: string, body: string) {
  const created = await send(host, 'POST', '/api/community/posts', { title, body, space: 'gold' });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string; title: string }>();
}

/** The Gold member named is told of the mention; the others named have nothing stored, and cannot open it. */
async function expectOnlyGoldTold(post: { id: string; title: string }) {
  const told = await storedFor(goldNamed);
  expect(told.mails.filter((mail) => mail.kind === 'notification-mention' && mail.subject.includes(post.title))).toHaveLength(1);
  expect(told.notifications.filter((row) => row.url === `/community/${post.id}`)).toEqual([
    expect.objectContaining({ kind: 'mention', title: `Hana Host mentioned you in “${post.title}”`, requiredTier: 'gold' }),
  ]);
  expect((await bell(goldNamed)).items.map((item) => item.url)).toContain(`/community/${post.id}`);
  for (const outsider of [silverNamed, bronzeNamed]) {
    expect(await storedFor(outsider)).toEqual({ notifications: [], mails: [] });
    expect(await bell(outsider)).toMatchObject({ items: [], unread: 0 });
    const opened = await send(outsider, 'GET', `/api/community/posts/${post.id}`);
    expect(opened.statusCode).toBe(403);
    expect(opened.json()).toEqual({ detail: GOLD_SPACE_ONLY });
    expect(opened.body).not.toContain(post.title);
  }
}

describe('an @mention in the Gold Lounge', () => {
  it('in a new discussion tells the Gold member named, and nobody named who is not Gold', async () => {
    const post = await loungePost('Off-market deals', MENTIONS);
    await expectOnlyGoldTold(post);
  });

  it('in a reply tells the Gold member named, and nobody named who is not Gold', async () => {
    const post = await loungePost('Pocket listings', 'Who has tried them?');
    const replied = await send(host, 'POST', `/api/community/posts/${post.id}/replies`, { body: MENTIONS });
    expect(replied.statusCode, replied.body).toBe(201);
    await expectOnlyGoldTold(post);
  });
});

describe('namesakes', () => {
  it('never crowd the Gold member named out: those who may not read the Lounge are left out before the few are chosen', async () => {
    // Three members outside the Lounge, older than the Gold one, share the Gold member's name.
    for (const tier of ['free', 'bronze', 'silver'] as const) await t.loginAs(tier, { name: 'Pat Namesake' });
    const gold = await t.loginAs('gold', { name: 'Pat Namesake' });
    const post = await loungePost('Namesakes', 'A word for @Pat Namesake.');
    const told = await storedFor(gold);
    expect(told.notifications.filter((row) => row.url === `/community/${post.id}`)).toHaveLength(1);
  });
});

describe('a member who is not Gold', () => {
  it('cannot start a discussion in the Gold Lounge, nor reply or like there, and nothing is stored', async () => {
    const post = await loungePost('Gold only', 'Members of the lounge only.');
    const free = await t.loginAs('free', { name: 'Fred Free' });
    // Starting a discussion is refused for the tier; a reply or a like, because the discussion is not theirs to read.
    for (const [who, refusedPost] of [
      [silverNamed, GOLD_SPACE_ONLY],
      [bronzeNamed, GOLD_SPACE_ONLY],
      [free, UPGRADE_TO_PARTICIPATE],
    ] as const) {
      const answers = [
        await send(who, 'POST', '/api/community/posts', { title: `Sneaking in, ${who.name}`, body: 'Hello @Hana Host', space: 'gold' }),
        await send(who, 'POST', `/api/community/posts/${post.id}/replies`, { body: 'Hello @Hana Host' }),
        await send(who, 'PUT', `/api/community/posts/${post.id}/like`),
      ];
      expect(
        answers.map((answer) => [answer.statusCode, answer.json().detail]),
        who.name,
      ).toEqual([
        [403, refusedPost],
        [403, GOLD_SPACE_ONLY],
        [403, GOLD_SPACE_ONLY],
      ]);
      expect(await t.db.select().from(communityPosts).where(eq(communityPosts.authorId, who.memberId))).toEqual([]);
    }
    expect(await t.db.select().from(communityReplies).where(eq(communityReplies.postId, post.id))).toEqual([]);
    // The lounge's host heard of none of it.
    expect(await t.db.select().from(notifications).where(eq(notifications.memberId, host.memberId))).toEqual([]);
  });
});

describe('a member moved down from Gold', () => {
  it('is no longer told of a mention or a reply there, and can no longer change what they wrote there', async () => {
    const former = await t.loginAs('gold', { name: 'Fern Former' });
    const theirs = await send(former, 'POST', '/api/community/posts', { title: 'My lounge question', body: 'Thoughts?', space: 'gold' });
    expect(theirs.statusCode).toBe(201);
    const owner = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/members/${former.memberId}/tier`,
      headers: owner,
      payload: { membership_tier: 'silver' },
    });
    expect(moved.statusCode, moved.body).toBe(200);

    const post = await loungePost('After the move', 'Any news from @Fern Former?');
    const replied = await send(host, 'POST', `/api/community/posts/${theirs.json().id}/replies`, { body: 'Replying to @Fern Former' });
    expect(replied.statusCode).toBe(201);
    expect(await storedFor(former)).toEqual({ notifications: [], mails: [] });
    for (const [method, url] of [
      ['PATCH', `/api/community/posts/${theirs.json().id}`],
      ['DELETE', `/api/community/posts/${theirs.json().id}`],
      ['GET', `/api/community/posts/${post.id}`],
    ] as const) {
      const refused = await t.app.inject({
        method,
        url,
        headers: former.headers,
        payload: method === 'PATCH' ? { title: 'Edited', body: 'x' } : undefined,
      });
      expect([url, refused.statusCode, refused.json().detail]).toEqual([url, 403, GOLD_SPACE_ONLY]);
    }
    const [kept] = await t.db.select().from(communityPosts).where(eq(communityPosts.id, theirs.json().id));
    expect(kept).toMatchObject({ title: 'My lounge question', content: 'Thoughts?' });
  });
});
