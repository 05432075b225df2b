import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_LIMIT, DATA_EXPORT_LIMIT, OFFER_LOOKUP_LIMIT, TYPED_ADDRESS_MAIL } from '../../common/limits.ts';
import { auditLog, contactMessages, outboxMessages } from '../../db/schema.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// What a signed-in member or a visitor could repeat without end, each at its limit
// (common/limits.ts): a 429 with a message, and nothing more done past it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

/** Sends `times` requests one after another; the status of each. */
async function statuses(times: number, send: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < times; i++) answers.push((await send()).statusCode);
  return answers;
}

describe('limits on what can be repeated', () => {
  it("'Download my data' answers so many times an hour, then 429 before any of the file is sent", async () => {
    const member = await t.loginAs('bronze');
    const send = () => t.app.inject({ url: '/api/account/export', headers: member.headers });
    expect(await statuses(DATA_EXPORT_LIMIT.max, send)).toEqual(Array(DATA_EXPORT_LIMIT.max).fill(200));
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-disposition']).toBeUndefined();
    expect(refused.json().detail).toMatch(/too many/i);
    // Another member is not held back by the first one's downloads.
    expect((await t.app.inject({ url: '/api/account/export', headers: (await t.loginAs('free')).headers })).statusCode).toBe(200);
  });

  it('offer codes cannot be walked: so many lookups per client address, then 429', async () => {
    const lookup = (code: string, remoteAddress: string) => t.app.inject({ url: `/api/offers/${code}`, remoteAddress });
    const answers = await statuses(OFFER_LOOKUP_LIMIT.max, () => lookup(`GUESS${Math.floor(Math.random() * 1e6)}`, '10.9.0.1'));
    expect(answers.every((status) => status === 404)).toBe(true);
    expect((await lookup('GUESSAGAIN', '10.9.0.1')).statusCode).toBe(429);
    expect((await lookup('GUESSAGAIN', '10.9.0.2')).statusCode).toBe(404);
  });

  it('a member starts so many checkouts an hour, then 429 (each one makes a customer and a session at Stripe)', async () => {
    const member = await t.loginAs('free');
    const checkout = () =>
      t.app.inject({ method: 'POST', url: '/api/billing/checkout', headers: member.headers, payload: { tier: 'gold', period: 'monthly' } });
    // No payment server in this app: each one is refused for that, and still counted.
    const answers = await statuses(CHECKOUT_LIMIT.max, checkout);
    expect(answers).not.toContain(429);
    const refused = await checkout();
    expect(refused.statusCode).toBe(429);
    const team = await t.app.inject({
      method: 'POST',
      url: '/api/teams/checkout',
      headers: member.headers,
      payload: { name: 'Walkers', tier: 'silver', period: 'monthly', seats: 5 },
    });
    expect(team.statusCode).toBe(429);
  });

  it("the contact form's acknowledgements to one address stay at the day's limit when sent all at once from many addresses", async () => {
    const email = uniqueEmail('flooded');
    const { max } = TYPED_ADDRESS_MAIL.contactAnswers.perRecipient;
    const answers = await Promise.all(
      Array.from({ length: max + 6 }, (_, index) =>
        t.app.inject({
          method: 'POST',
          url: '/api/contact',
          remoteAddress: `10.8.${index}.1`,
          payload: { name: 'Flood', email, subject: 'Hello', message: 'A message sent many times at once.' },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200 || answer.statusCode === 201)).toHaveLength(max);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(6);
    const [stored] = await t.db
      .select({ value: count() })
      .from(contactMessages)
      .where(eq(sql`lower(${contactMessages.email})`, email));
    expect(stored!.value).toBe(max);
    const [mailed] = await t.db
      .select({ value: count() })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, email), eq(outboxMessages.kind, 'contact-received')));
    expect(mailed!.value).toBe(max);
  });

  it("an owner's export of the members is in the audit log, with what was searched", async () => {
    const staff = await t.loginAsStaff();
    const response = await t.app.inject({
      url: '/api/admin/members/export.csv?search=lee',
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(response.statusCode).toBe(200);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.export'), eq(auditLog.actorEmail, staff.email)));
    expect(entries.map((entry) => entry.target)).toEqual(['members matching "lee"']);
  });
});
