import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, staffAccounts } from '../../db/schema.ts';
import { totpCode } from '../../server/auth/totp.ts';
import { startPageApp, type PageApp } from '../helpers/page-app.ts';
import { startFakeStripe, type FakeStripe } from '../helpers/stripe-server.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// What a page and its loader data (`<path>.data`, as the page's script asks for it) hold, read as
// anyone who gets the HTML would (a shared screen, a browser extension, a cache): never a session
// token, a password hash, the calendar feed's secret, a staff member's authenticator secret or
// recovery codes, nor any of the server's own keys.

const SMTP_PASSWORD = `smtp-pass-${randomBytes(12).toString('hex')}`;
const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
const vapid = webpush.generateVAPIDKeys();

let fake: FakeStripe;
let t: TestApp;
let site: PageApp;
let member: MemberLogin;
let staff: Awaited<ReturnType<TestApp['loginAsStaff']>>;
let feedToken: string;
let totp: { secret: string; codes: string[] };
beforeAll(async () => {
  fake = await startFakeStripe();
  t = await createTestApp({
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      // Mail is never delivered here (nothing listens on the port): only the password in the setting matters.
      SMTP_URL: `smtp://rp-mailer:${SMTP_PASSWORD}@127.0.0.1:9`,
      METRICS_TOKEN,
      STRIPE_API_BASE: fake.url,
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    },
  });
  site = await startPageApp(t);
  member = await t.loginAs('gold', { name: 'Paige Secret' });
  staff = await t.loginAsStaff({ role: 'owner' });
  const staffHeaders = { authorization: `Bearer ${staff.token}` };
  const { secret } = (await t.app.inject({ method: 'POST', url: '/api/admin/two-factor/setup', headers: staffHeaders })).json();
  const enabled = await t.app.inject({
    method: 'POST',
    url: '/api/admin/two-factor/enable',
    headers: staffHeaders,
    payload: { code: totpCode(secret, Math.floor(Date.now() / 30_000)), password: staff.password },
  });
  expect(enabled.statusCode, enabled.body).toBe(200);
  totp = { secret, codes: enabled.json().recovery_codes };
}, 120_000);
afterAll(async () => {
  await site?.close();
  await t.close();
  await fake.close();
});

/** A page as the browser asks for it, with the session cookie, or its loader data. */
const open = (url: string, cookie: string) => site.app.inject({ url, headers: { cookie } });
const dataOf = (path: string) => (path === '/' ? '/_.data' : `${path}.data`);
const hashOf = async (table: typeof members | typeof staffAccounts, id: string) =>
  (await t.db.select({ hash: table.passwordHash }).from(table).where(eq(table.id, id)))[0]!.hash;

/** Every secret no page may hold, by name. */
async function secrets(): Promise<Record<string, string>> {
  return {
    'member session token': member.token,
    'staff session token': staff.token,
    'member password hash': await hashOf(members, member.memberId),
    'staff password hash': await hashOf(staffAccounts, staff.id),
    'any password hash': '$argon2',
    'calendar feed token': feedToken,
    'TOTP secret': totp.secret,
    'TOTP secret as typed': totp.secret.match(/.{1,4}/g)!.join(' '),
    ...Object.fromEntries(totp.codes.map((code, index) => [`recovery code ${index + 1}`, code])),
    'Stripe secret key': fake.secretKey,
    'Stripe webhook secret': fake.webhookSecret,
    'VAPID private key': vapid.privateKey,
    'SMTP password': SMTP_PASSWORD,
    'metrics token': METRICS_TOKEN,
  };
}

/** Opens each page and its data with this cookie: each must answer 200 (a redirect to sign in would prove nothing) and hold no secret. */
async function expectNoSecretIn(paths: string[], cookie: string, shows: string) {
  const all = await secrets();
  for (const path of paths) {
    for (const url of [path, dataOf(path)]) {
      const answer = await open(url, cookie);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body, url).toContain(shows);
      for (const [name, secret] of Object.entries(all)) expect(answer.body.includes(secret), `${name} in ${url}`).toBe(false);
    }
  }
}

describe('a member’s pages', () => {
  it('show the calendar feed’s address once, in the answer to the member asking for it, and never after', async () => {
    const made = await site.app.inject({
      method: 'POST',
      url: '/coaching.data',
      headers: { cookie: `rp_session=${member.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ intent: 'feed-reset' }).toString(),
    });
    expect(made.statusCode).toBe(200);
    const url = /https?:\/\/[^"\s]+\/api\/coaching\/calendar\/([A-Za-z0-9_-]+)\.ics/.exec(made.body);
    expect(url, made.body).not.toBeNull();
    feedToken = url![1]!;
    expect(feedToken.length).toBeGreaterThanOrEqual(32);
    // The address works: it is the feed's real secret that the pages must not hold.
    expect((await t.app.inject({ url: new URL(url![0]).pathname })).statusCode).toBe(200);

    await expectNoSecretIn(
      [
        '/',
        '/dashboard',
        '/account',
        '/account/billing',
        '/notifications',
        '/notifications/settings',
        '/coaching',
        '/coaching/one-on-one',
        '/goals',
        '/community',
      ],
      `rp_session=${member.token}`,
      member.name,
    );
  }, 180_000);
});

describe('staff pages', () => {
  it('hold no secret, of the staff member or of the member they look at, once two-factor sign-in is set up', async () => {
    expect(feedToken, 'the member test made the feed').toBeDefined();
    await expectNoSecretIn(
      [
        '/admin/dashboard',
        '/admin/dashboard/security',
        '/admin/dashboard/staff',
        '/admin/dashboard/members',
        `/admin/dashboard/members/${member.memberId}`,
        '/admin/dashboard/activity',
        '/admin/dashboard/offers',
      ],
      `rp_staff=${staff.token}`,
      staff.email,
    );
    // Staff on the public site (edit mode), signed in as the member too.
    await expectNoSecretIn(['/', '/dashboard'], `rp_staff=${staff.token}; rp_session=${member.token}`, member.name);
  }, 180_000);
});
