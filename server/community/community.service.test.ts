import { describe, expect, it } from 'vitest';
import { GOLD_SPACE_ONLY, SUSPENDED, THREAD_LOCKED, UPGRADE_TO_PARTICIPATE } from '../../common/community.contract.ts';
import { PAGE_SIZE } from '../../common/limits.ts';
import { refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// The community's rules for members, called in process (the HTTP contract is tests/api/community.test.ts).

const t = serviceTestApp();

const community = () => t.app.services.community;

describe('community rules', () => {
  it('lets Bronze and above take part, and tells the others why not', async () => {
    const free = await t.asMember('free');
    expect(await refusal(community().createPost(free, { title: 'Hello', body: 'Hi', space: 'general' }))).toEqual({
      status: 403,
      message: UPGRADE_TO_PARTICIPATE,
    });
    const suspended = await t.asMember('gold', { suspended: true });
    expect((await refusal(community().createPost(suspended, { title: 'Hello', body: 'Hi', space: 'general' }))).message).toBe(SUSPENDED);
    const bronze = await t.asMember('bronze');
    const post = await community().createPost(bronze, { title: 'Open houses', body: 'Weekday or weekend?', space: 'general' });
    expect(post).toMatchObject({ mine: true, author: { tier: 'bronze' }, likes_count: 0 });
  });

  it('keeps the Gold Lounge to Gold members, decided on every read', async () => {
    const gold = await t.asMember('gold');
    const silver = await t.asMember('silver');
    const lounge = await community().createPost(gold, { title: 'Lounge only', body: 'VIP', space: 'gold' });
    expect((await refusal(community().post(silver, lounge.id))).message).toBe(GOLD_SPACE_ONLY);
    expect((await refusal(community().feed(silver, { space: 'gold', sort: 'newest' }))).message).toBe(GOLD_SPACE_ONLY);
    expect((await community().post(gold, lounge.id)).post.title).toBe('Lounge only');
  });

  it('takes no replies in a locked discussion, and counts one like per member however often it is given', async () => {
    const staff = await t.asStaff('editor');
    const author = await t.asMember('silver');
    const liker = await t.asMember('bronze');
    const post = await community().createPost(author, { title: 'Lockable', body: 'Soon locked', space: 'general' });
    await community().like(liker, post.id, true);
    expect((await community().like(liker, post.id, true)).likes_count).toBe(1);
    await t.app.services.communityModeration.moderatePost(staff, post.id, 'lock');
    expect(await refusal(community().reply(liker, post.id, { body: 'Too late?' }))).toEqual({ status: 409, message: THREAD_LOCKED });
  });

  it('reads the feed a page at a time, newest first, each page after the last one shown', async () => {
    const author = await t.asMember('gold');
    for (let index = 0; index < PAGE_SIZE.communityFeed + 3; index++) {
      await t.app.services.community.createPost(await t.asMember('bronze'), {
        title: `Numbered ${index}`,
        body: `Post ${index}`,
        space: 'general',
      });
    }
    const first = await community().feed(author, { space: 'general', sort: 'newest' });
    expect(first.posts).toHaveLength(PAGE_SIZE.communityFeed);
    expect(first.next_cursor).not.toBeNull();
    const second = await community().feed(author, { space: 'general', sort: 'newest', before: first.next_cursor! });
    const ids = [...first.posts, ...second.posts].map((post) => post.id);
    expect(new Set(ids).size).toBe(ids.length);
    const times = [...first.posts, ...second.posts].map((post) => post.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });
});
