import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_REFRESH_LIMIT, COMMUNITY_RATES, SIGNUP_LIMIT } from '../../common/limits.ts';
import { communityReports, members } from '../../db/schema.ts';
import { startPageApp } from '../helpers/page-app.ts';
import { startFakeStripe, type FakeStripe } from '../helpers/stripe-server.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// Limits no other file drives past their end, as someone abusing them would: sign-ups in bulk from
// one place, a flood of reports, and a member making the site call Stripe again and again.

let fake: FakeStripe;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    seed: false,
    env: { STRIPE_SECRET_KEY: fake.secretKey, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_BASE: fake.url },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const TOO_MANY = /^Too many attempts\. Please wait \d+ (seconds|minutes) and try again\.$/;

/** A sign-up from this socket address, with an X-Forwarded-For header when one is given. */
async function signUp(app: FastifyInstance, from: string, forwardedFor?: string) {
  const email = uniqueEmail('bulk');
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { name: 'Bulk Account', email, password: 'secret12' },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    remoteAddress: from,
  });
  return { email, response };
}
const accountsWith = async (email: string) =>
  (await t.db.select({ value: count() }).from(members).where(eq(members.email, email)))[0]!.value;

describe('sign-ups in bulk', () => {
  it(`refuses the sign-up past ${SIGNUP_LIMIT.max} from one address, whatever X-Forwarded-For it forges, and makes no account`, async () => {
    for (let n = 1; n <= SIGNUP_LIMIT.max; n++) {
      const { response } = await signUp(t.app, '198.51.100.20', `203.0.113.${n}`);
      expect(response.statusCode, `sign-up ${n}`).toBe(201);
    }
    const refused = await signUp(t.app, '198.51.100.20', '203.0.113.250');
    expect(refused.response.statusCode).toBe(429);
    expect(refused.response.json().detail).toMatch(TOO_MANY);
    expect(await accountsWith(refused.email)).toBe(0);

    // Someone else, from another address, signs up meanwhile.
    const other = await signUp(t.app, '198.51.100.21');
    expect(other.response.statusCode).toBe(201);
    expect(typeof other.response.json().token).toBe('string');
    expect(await accountsWith(other.email)).toBe(1);
  });

  it('counts each client behind a trusted proxy by the address the proxy forwards', async () => {
    const proxied = await createTestApp({ seed: false, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      for (let n = 1; n <= SIGNUP_LIMIT.max; n++)
        expect((await signUp(proxied.app, '127.0.0.1', '203.0.113.7')).response.statusCode).toBe(201);
      expect((await signUp(proxied.app, '127.0.0.1', '203.0.113.7')).response.statusCode).toBe(429);
      // Another client through the same proxy is not held by the first one's sign-ups.
      expect((await signUp(proxied.app, '127.0.0.1', '203.0.113.8')).response.statusCode).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});

// An IPv6 client holds a whole /64 (a home connection, a rented server) and picks any address in it:
// counted per address, each sign-up looks like a new client.
describe('sign-ups in bulk from one IPv6 network', () => {
  it(`refuses the sign-up past ${SIGNUP_LIMIT.max} from addresses of one /64`, async () => {
    for (let n = 1; n <= SIGNUP_LIMIT.max; n++)
      expect((await signUp(t.app, `2001:db8:5:7::${n.toString(16)}`)).response.statusCode).toBe(201);
    const refused = await signUp(t.app, '2001:db8:5:7:abcd:ef01:2345:6789');
    expect(refused.response.statusCode).toBe(429);
    expect(await accountsWith(refused.email)).toBe(0);
  });
});

describe('a flood of reports', () => {
  it(`stops a member's reports past ${COMMUNITY_RATES.report.max} an hour, storing none of the rest, and not anyone else's`, async () => {
    // A member reports each thing once: the flood is of reports on many replies of one discussion.
    const author = await t.loginAs('bronze');
    const send = async (url: string, payload: object) => {
      const answer = await t.app.inject({ method: 'POST', url, headers: author.headers, payload });
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json().id as string;
    };
    const postId = await send('/api/community/posts', { title: 'Open house tips', body: 'What works?' });
    const replyIds: string[] = [];
    for (let n = 0; n <= COMMUNITY_RATES.report.max; n++)
      replyIds.push(await send(`/api/community/posts/${postId}/replies`, { body: `Tip ${n}` }));
    const report = (who: { headers: object }, replyId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/community/reports',
        headers: { ...who.headers },
        payload: { post_id: postId, reply_id: replyId, reason: 'Spam' },
      });

    const flooder = await t.loginAs('bronze');
    for (const replyId of replyIds.slice(0, -1)) expect((await report(flooder, replyId)).statusCode).toBe(201);
    const refused = await report(flooder, replyIds.at(-1)!);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(TOO_MANY);
    const stored = await t.db
      .select({ value: count() })
      .from(communityReports)
      .where(and(eq(communityReports.postId, postId), eq(communityReports.reporterId, flooder.memberId)));
    expect(stored[0]!.value).toBe(COMMUNITY_RATES.report.max);

    // Another member still reports what the flooder could not.
    expect((await report(await t.loginAs('silver'), replyIds.at(-1)!)).statusCode).toBe(201);
  });
});

describe('refreshing the plan from Stripe', () => {
  it(`asks Stripe at most ${BILLING_REFRESH_LIMIT.max} times an hour for a member, however often they come back from checkout`, async () => {
    const member = await t.loginAs('free');
    // An unpaid checkout: the member has a Stripe customer and no plan, so each return asks Stripe.
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: member.headers,
      payload: { tier: 'silver', period: 'monthly' },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const [row] = await t.db.select({ customer: members.stripeCustomerId }).from(members).where(eq(members.id, member.memberId));
    const listings = () =>
      fake.calls.filter((call) => call.method === 'GET' && call.path === '/v1/subscriptions' && call.params.customer === row!.customer)
        .length;

    const site = await startPageApp(t);
    try {
      for (let n = 1; n <= BILLING_REFRESH_LIMIT.max + 2; n++) {
        const back = await site.app.inject({ url: '/dashboard?checkout=success', cookies: { rp_session: member.token } });
        expect(back.statusCode, `return ${n}`).toBe(302);
        expect(back.headers.location).toBe('/dashboard');
      }
      expect(listings()).toBe(BILLING_REFRESH_LIMIT.max);
      // What the page falls back from: the refresh itself is refused with a 429.
      const refused = site.app.services.billing.refresh(await t.viewerOf(member.token));
      await expect(refused).rejects.toMatchObject({ status: 429, message: expect.stringMatching(TOO_MANY) });
      expect(listings()).toBe(BILLING_REFRESH_LIMIT.max);
    } finally {
      await site.close();
    }
  }, 180_000);
});
