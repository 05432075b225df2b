import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactMessageRow } from '../../common/admin.contract.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// Priority support: messages from Silver and Gold members head the staff inbox when staff ask for
// priority first; staff see which are replied to.

let t: TestApp;
let staff: { authorization: string };
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  staff = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
});
afterAll(() => t.close());

const send = (subject: string, headers: Record<string, string> = {}, address = '10.9.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/contact',
    headers: { ...headers, 'x-forwarded-for': address },
    remoteAddress: address,
    payload: { name: 'Pat Agent', email: 'pat@example.com', subject, message: 'Can you help with my listing?' },
  });
const inbox = async (query: string) => {
  const answer = await t.app.inject({ url: `/api/admin/messages${query}`, headers: staff });
  expect(answer.statusCode, answer.body).toBe(200);
  return { rows: answer.json() as ContactMessageRow[], next: answer.headers.link };
};

describe('the priority inbox', () => {
  it('puts Silver and Gold members’ messages first, newest first within each, and filters by replied', async () => {
    const [free, silver, gold] = [await t.loginAs('free'), await t.loginAs('silver'), await t.loginAs('gold')];
    expect((await send('From a visitor', {}, '10.9.0.2')).statusCode).toBe(201);
    await send('From Gold', gold.headers, '10.9.0.3');
    await send('From Free', free.headers, '10.9.0.4');
    await send('From Silver', silver.headers, '10.9.0.5');

    const newest = await inbox('');
    expect(newest.rows.map((row) => row.subject)).toEqual(['From Silver', 'From Free', 'From Gold', 'From a visitor']);
    const byPriority = await inbox('?sort=priority');
    expect(byPriority.rows.map((row) => [row.subject, row.priority, row.sender_tier])).toEqual([
      ['From Silver', true, 'silver'],
      ['From Gold', true, 'gold'],
      ['From Free', false, 'free'],
      ['From a visitor', false, null],
    ]);

    const silverMessage = byPriority.rows[0]!;
    await t.app.inject({ method: 'POST', url: `/api/admin/messages/${silverMessage.id}/handled`, headers: staff });
    expect((await inbox('?sort=priority&status=open')).rows.map((row) => row.subject)).toEqual([
      'From Gold',
      'From Free',
      'From a visitor',
    ]);
    expect((await inbox('?status=replied')).rows.map((row) => row.subject)).toEqual(['From Silver']);
    expect((await t.app.inject({ url: '/api/admin/messages?sort=oldest', headers: staff })).statusCode).toBe(400);
  });

  it('leaves a Bronze member’s message out of the priority, with their tier shown', async () => {
    await send('From Gold again', (await t.loginAs('gold')).headers, '10.9.0.6');
    const bronze = await t.loginAs('bronze');
    expect((await send('From Bronze', bronze.headers, '10.9.0.7')).statusCode).toBe(201);
    expect((await inbox('')).rows[0]).toMatchObject({ subject: 'From Bronze', priority: false, sender_tier: 'bronze', handled: false });
    // By priority, every message with priority comes before it, the Gold one sent before it too.
    const rows = (await inbox('?sort=priority')).rows;
    const at = (subject: string) => rows.findIndex((row) => row.subject === subject);
    expect(at('From Gold again')).toBeLessThan(at('From Bronze'));
    expect(rows.slice(at('From Bronze')).every((row) => !row.priority)).toBe(true);
    expect(rows.slice(0, at('From Bronze')).every((row) => row.priority)).toBe(true);
  });

  it('is read by editors and owners alike; members of every tier and visitors are refused', async () => {
    const owner = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'owner' })).token}` };
    await send('For the owner', (await t.loginAs('silver')).headers, '10.9.0.8');
    const read = async (headers: { authorization: string }) => {
      const answer = await t.app.inject({ url: '/api/admin/messages?sort=priority', headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as ContactMessageRow[]).map((row) => row.id);
    };
    const [byEditor, byOwner] = [await read(staff), await read(owner)];
    expect(byOwner).toEqual(byEditor);
    const message = (await inbox('?sort=priority')).rows.find((row) => row.subject === 'For the owner')!;
    expect(message).toMatchObject({ priority: true, sender_tier: 'silver' });
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/messages/${message.id}/handled`, headers: owner })).statusCode).toBe(200);
    expect((await inbox('?status=replied')).rows.map((row) => row.subject)).toContain('For the owner');

    for (const tier of ['free', 'bronze', 'silver', 'gold'] as const) {
      const member = await t.loginAs(tier);
      for (const refused of [
        await t.app.inject({ url: '/api/admin/messages', headers: member.headers }),
        await t.app.inject({ method: 'POST', url: `/api/admin/messages/${message.id}/handled`, headers: member.headers }),
      ]) {
        expect(refused.statusCode, tier).toBe(403);
        expect(refused.json().detail).toBe('This needs an administrator account.');
      }
    }
    expect((await t.app.inject({ url: '/api/admin/messages' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/messages/${message.id}/handled` })).statusCode).toBe(401);
  });
});
