import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOLD_SPACE_ONLY, SUSPENDED, THREAD_LOCKED, UPGRADE_TO_PARTICIPATE } from '../../common/community.contract.ts';
import { auditLog, communityReports, members, outboxMessages } from '../../db/schema.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let staff: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });
const newPost = (who: MemberLogin, title: string, body = `${title}: details.`, space?: 'general' | 'gold') =>
  request('POST', '/api/community/posts', who.headers, { title, body, ...(space ? { space } : {}) });
const feed = async (who: MemberLogin, query = '') => (await request('GET', `/api/community/feed${query}`, who.headers)).json();

describe('who may do what', () => {
  it('keeps the spec preview for visitors, who may do nothing else', async () => {
    const preview = (await request('GET', '/api/community/posts')).json() as { content: string | null }[];
    expect(preview.slice(0, 2).every((post) => post.content !== null)).toBe(true);
    expect(preview.slice(2).every((post) => post.content === null)).toBe(true);
    expect((await request('GET', '/api/community/feed')).statusCode).toBe(401);
    expect((await request('GET', '/api/community/posts/post-first-closing')).statusCode).toBe(401);
    expect((await request('POST', '/api/community/posts', {}, { title: 'Hi', body: 'There' })).statusCode).toBe(401);
    expect((await request('PUT', '/api/community/posts/post-first-closing/like')).statusCode).toBe(401);
  });

  it('lets free members read discussions and their replies, and invites them to upgrade to take part', async () => {
    const free = await t.loginAs('free');
    const page = await feed(free);
    expect(page.rights).toEqual({ can_post: false, can_like: false, can_read_gold: false, reason: UPGRADE_TO_PARTICIPATE });
    expect(page.posts.length).toBeGreaterThan(2);
    const detail = (await request('GET', '/api/community/posts/post-expired-scripts', free.headers)).json();
    expect(detail.replies).toHaveLength(3);
    expect(detail.post.replies_count).toBe(3);
    for (const refused of [
      await newPost(free, 'Can I post?'),
      await request('POST', '/api/community/posts/post-expired-scripts/replies', free.headers, { body: 'Me too' }),
      await request('PUT', '/api/community/posts/post-expired-scripts/like', free.headers),
    ]) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe(UPGRADE_TO_PARTICIPATE);
    }
  });

  it('lets Bronze members post, reply, like once, and change only what is theirs', async () => {
    const bronze = await t.loginAs('bronze', { name: 'Bea Bronze' });
    const created = await newPost(bronze, 'Listing photos on a budget', 'Phone or pro photographer?');
    expect(created.statusCode).toBe(201);
    const post = created.json();
    expect(post).toMatchObject({ author: { name: 'Bea Bronze', tier: 'bronze' }, mine: true, replies_count: 0, likes_count: 0 });
    expect((await feed(bronze)).posts[0].id).toBe(post.id);
    // Visitors see it first in the preview, readable.
    expect((await request('GET', '/api/community/posts')).json()[0]).toMatchObject({ id: post.id, content: 'Phone or pro photographer?' });

    for (let i = 0; i < 2; i++)
      expect((await request('PUT', `/api/community/posts/${post.id}/like`, bronze.headers)).json()).toEqual({
        liked: true,
        likes_count: 1,
      });
    for (let i = 0; i < 2; i++)
      expect((await request('DELETE', `/api/community/posts/${post.id}/like`, bronze.headers)).json()).toEqual({
        liked: false,
        likes_count: 0,
      });

    const reply = await request('POST', '/api/community/posts/post-first-closing/replies', bronze.headers, { body: 'Congratulations!' });
    expect(reply.statusCode).toBe(201);
    const detail = (await request('GET', '/api/community/posts/post-first-closing', bronze.headers)).json();
    expect(detail.post.replies_count).toBe(3);
    expect(detail.replies.at(-1)).toMatchObject({ body: 'Congratulations!', mine: true, author: { name: 'Bea Bronze', tier: 'bronze' } });

    const edited = await request('PATCH', `/api/community/posts/${post.id}`, bronze.headers, {
      title: 'Listing photos, cheaply',
      body: 'Phone?',
    });
    expect(edited.json()).toMatchObject({ title: 'Listing photos, cheaply', content: 'Phone?' });
    expect(edited.json().edited_at).not.toBeNull();
    const others = await request('PATCH', '/api/community/posts/post-first-closing', bronze.headers, { title: 'Mine now', body: 'No' });
    expect(others.statusCode).toBe(403);
    expect((await request('DELETE', `/api/community/replies/${reply.json().id}`, bronze.headers)).statusCode).toBe(200);
    expect((await request('GET', '/api/community/posts/post-first-closing', bronze.headers)).json().post.replies_count).toBe(2);
    expect((await request('DELETE', `/api/community/posts/${post.id}`, bronze.headers)).statusCode).toBe(200);
    expect((await request('GET', `/api/community/posts/${post.id}`, bronze.headers)).statusCode).toBe(404);
  });

  it('gives Silver and Gold posts their badge, and the Gold Lounge to Gold members alone', async () => {
    const silver = await t.loginAs('silver');
    expect((await newPost(silver, 'Silver speaking')).json().author.tier).toBe('silver');
    const gold = await t.loginAs('gold');
    const lounge = await newPost(gold, 'Gold lounge only', 'VIP talk', 'gold');
    expect(lounge.json()).toMatchObject({ space: 'gold', author: { tier: 'gold' } });
    expect((await feed(gold, '?space=gold')).posts.map((post: { id: string }) => post.id)).toContain(lounge.json().id);
    expect((await feed(gold)).posts.map((post: { id: string }) => post.id)).not.toContain(lounge.json().id);
    expect((await feed(gold)).rights.can_read_gold).toBe(true);

    const bronze = await t.loginAs('bronze');
    expect((await request('GET', '/api/community/feed?space=gold', bronze.headers)).json().detail).toBe(GOLD_SPACE_ONLY);
    expect((await request('GET', `/api/community/posts/${lounge.json().id}`, bronze.headers)).statusCode).toBe(403);
    expect((await newPost(bronze, 'Sneaking in', 'x', 'gold')).statusCode).toBe(403);
    const everyoneSees = [
      ...((await request('GET', '/api/community/posts', bronze.headers)).json() as { id: string }[]),
      ...((await request('GET', '/api/community/posts')).json() as { id: string }[]),
    ];
    expect(everyoneSees.map((post) => post.id)).not.toContain(lounge.json().id);
  });

  it('stops a suspended member from posting and replying, until staff lift it', async () => {
    const bronze = await t.loginAs('bronze');
    const suspend = (suspended: boolean) =>
      request('POST', `/api/admin/members/${bronze.memberId}/community-suspension`, staff, { suspended });
    expect((await suspend(true)).statusCode).toBe(200);
    expect((await newPost(bronze, 'Let me talk')).json().detail).toBe(SUSPENDED);
    expect((await request('POST', '/api/community/posts/post-team-split/replies', bronze.headers, { body: 'Hi' })).statusCode).toBe(403);
    expect((await feed(bronze)).rights).toMatchObject({ can_post: false, reason: SUSPENDED });
    expect((await suspend(false)).statusCode).toBe(200);
    expect((await newPost(bronze, 'Back again')).statusCode).toBe(201);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'community.suspend'));
    expect(entry!.target).toBe(bronze.email);
    expect(
      (await request('POST', `/api/admin/members/${bronze.memberId}/community-suspension`, bronze.headers, { suspended: false }))
        .statusCode,
    ).toBe(403);
  });
});

describe('limits', () => {
  // Every attempt counts towards the limit, refused ones too: a flood is a flood.
  it('refuses the same post twice, and more than 5 posts an hour', async () => {
    const bronze = await t.loginAs('bronze');
    expect((await newPost(bronze, 'Once', 'Only once')).statusCode).toBe(201);
    const again = await newPost(bronze, 'Once', 'Only once');
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('You already posted this discussion.');
    for (let i = 3; i <= 5; i++) expect((await newPost(bronze, `Post ${i}`)).statusCode).toBe(201);
    expect((await newPost(bronze, 'Post 6')).statusCode).toBe(429);
  });

  it('refuses the same reply twice, and more than 30 replies an hour', async () => {
    const bronze = await t.loginAs('bronze');
    const reply = (body: string) => request('POST', '/api/community/posts/post-social-video/replies', bronze.headers, { body });
    expect((await reply('Same words')).statusCode).toBe(201);
    expect((await reply('Same words')).json().detail).toBe('You already sent this reply.');
    for (let i = 3; i <= 30; i++) expect((await reply(`Reply ${i}`)).statusCode).toBe(201);
    expect((await reply('Reply 31')).statusCode).toBe(429);
  });

  it('refuses bad input with a message, and stores markup as plain text', async () => {
    const bronze = await t.loginAs('bronze');
    expect((await newPost(bronze, '', 'x')).json().detail).toContain('Title is required');
    expect((await newPost(bronze, 'x'.repeat(151), 'x')).statusCode).toBe(400);
    // A page link that was never one (or has been tampered with) is refused, with a way back.
    for (const cursor of ['abc', 'not%20a%20cursor', Buffer.from('["x"]').toString('base64url')]) {
      const refused = await request('GET', `/api/community/feed?before=${cursor}`, bronze.headers);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toMatch(/page link is not valid/);
    }
    expect(
      (await request('POST', '/api/community/reports', bronze.headers, { post_id: 'post-team-split', reply_id: 'nope', reason: 'x' }))
        .statusCode,
    ).toBe(400);
    const markup = await newPost(bronze, '<img src=x onerror=alert(1)>', '<script>alert("hi")</script>');
    expect(markup.json()).toMatchObject({ title: '<img src=x onerror=alert(1)>', content: '<script>alert("hi")</script>' });
  });
});

describe('moderation', () => {
  it('takes a reported post away from everyone at once when staff hide it, and back when they unhide it', async () => {
    const author = await t.loginAs('bronze');
    const post = (await newPost(author, 'Buy my course now!!!', 'Spam link')).json();
    const reporter = await t.loginAs('free');
    for (let i = 0; i < 2; i++) {
      expect((await request('POST', '/api/community/reports', reporter.headers, { post_id: post.id, reason: 'Spam' })).statusCode).toBe(
        201,
      );
    }
    const reports = (await request('GET', '/api/admin/community/reports', staff)).json();
    const mine = reports.filter((report: { post_id: string }) => report.post_id === post.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      post_title: 'Buy my course now!!!',
      text: 'Spam link',
      reason: 'Spam',
      hidden: false,
      author_id: author.memberId,
    });

    expect((await request('POST', `/api/admin/community/posts/${post.id}`, staff, { action: 'hide' })).statusCode).toBe(200);
    expect((await request('GET', `/api/community/posts/${post.id}`, author.headers)).statusCode).toBe(404);
    expect((await feed(author)).posts.map((each: { id: string }) => each.id)).not.toContain(post.id);
    expect(((await request('GET', '/api/community/posts')).json() as { id: string }[]).map((each) => each.id)).not.toContain(post.id);
    const [report] = await t.db.select().from(communityReports).where(eq(communityReports.postId, post.id));
    expect(report!.resolvedAt).not.toBeNull();
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'community.post.hide'));
    expect(entry).toMatchObject({ target: 'Buy my course now!!!' });

    expect((await request('POST', `/api/admin/community/posts/${post.id}`, staff, { action: 'unhide' })).statusCode).toBe(200);
    expect((await request('GET', `/api/community/posts/${post.id}`, author.headers)).statusCode).toBe(200);
    expect((await request('POST', `/api/admin/community/posts/${post.id}`, author.headers, { action: 'delete' })).statusCode).toBe(403);
    expect((await request('POST', `/api/admin/community/posts/${post.id}`, staff, { action: 'delete' })).statusCode).toBe(200);
    expect((await request('GET', `/api/community/posts/${post.id}`, author.headers)).statusCode).toBe(404);
  });

  it('hides a reply (and its count), pins a discussion to the top and locks it against new replies', async () => {
    const bronze = await t.loginAs('bronze');
    const reply = (
      await request('POST', '/api/community/posts/post-price-reduction/replies', bronze.headers, { body: 'Rude words' })
    ).json();
    const count = async () => (await request('GET', '/api/community/posts/post-price-reduction', bronze.headers)).json().post.replies_count;
    expect(await count()).toBe(3);
    expect((await request('POST', `/api/admin/community/replies/${reply.id}`, staff, { action: 'hide' })).statusCode).toBe(200);
    expect(await count()).toBe(2);
    const bodies = (await request('GET', '/api/community/posts/post-price-reduction', bronze.headers))
      .json()
      .replies.map((each: { body: string }) => each.body);
    expect(bodies).not.toContain('Rude words');

    await request('POST', '/api/admin/community/posts/post-team-split', staff, { action: 'pin' });
    expect((await feed(bronze)).posts[0]).toMatchObject({ id: 'post-team-split', pinned: true });
    await request('POST', '/api/admin/community/posts/post-team-split', staff, { action: 'lock' });
    const locked = await request('POST', '/api/community/posts/post-team-split/replies', bronze.headers, { body: 'Late to this' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().detail).toBe(THREAD_LOCKED);
    await request('POST', '/api/admin/community/posts/post-team-split', staff, { action: 'unlock' });
    await request('POST', '/api/admin/community/posts/post-team-split', staff, { action: 'unpin' });
    expect(
      (await request('POST', '/api/community/posts/post-team-split/replies', bronze.headers, { body: 'Late to this' })).statusCode,
    ).toBe(201);
  });
});

describe('notifications', () => {
  it('shows the author the replies to their posts, and mails them unless they unsubscribed', async () => {
    const author = await t.loginAs('bronze', { name: 'Ada Author' });
    const post = (await newPost(author, 'Who uses a CRM?')).json();
    const replier = await t.loginAs('silver', { name: 'Rex Replier' });
    await request('POST', `/api/community/posts/${post.id}/replies`, replier.headers, { body: 'I do, every day.' });
    await request('POST', `/api/community/posts/${post.id}/replies`, author.headers, { body: 'Thanks!' });
    const notices = (await request('GET', '/api/me/community/replies', author.headers)).json();
    expect(notices).toEqual([
      expect.objectContaining({ post_id: post.id, post_title: 'Who uses a CRM?', author_name: 'Rex Replier', excerpt: 'I do, every day.' }),
    ]);
    const mail = await t.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, author.email), eq(outboxMessages.kind, 'community-reply')));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Rex Replier replied to "Who uses a CRM?"');
    expect(mail[0]!.unsubscribeUrl).toContain('/api/email/unsubscribe?token=');

    await t.db.update(members).set({ emailOptOut: true }).where(eq(members.id, author.memberId));
    await request('POST', `/api/community/posts/${post.id}/replies`, replier.headers, { body: 'Also HubSpot.' });
    const after = await t.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, author.email), eq(outboxMessages.kind, 'community-reply')))
      .orderBy(desc(outboxMessages.createdAt));
    expect(after).toHaveLength(1);
  });
});
