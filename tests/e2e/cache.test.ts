import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../setup/postgres-template.ts';
import { baseUrl, newEmail, signInAsNewMember, useBrowser } from './browser.ts';
import { E2E_ADMIN, E2E_METRICS_TOKEN, startSiteServer, type SiteServer } from './global-setup.ts';

// Pages kept for visitors: a visitor never gets a signed-in page, a member never gets a kept page,
// and a change shows on the next visit, in this process and, on PostgreSQL, in another one. The
// member dashboard, kept per session: never another member's, fresh after the member's own write.

const browser = useBrowser();

const hero = (headline: string) => ({ headline, subheadline: 'Sub', cta_text: 'Join now' });

async function visit(base: string, path: string, cookie?: string) {
  const response = await fetch(`${base}${path}`, { headers: cookie ? { cookie } : {} });
  return { response, html: await response.text() };
}

/** A server's count of lookups of members' kept pages (/metrics): found, not found, and served by a render under way. */
async function ownPageLookups(base: string) {
  const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
  expect(metrics.status).toBe(200);
  const text = await metrics.text();
  const count = (result: string) => Number(new RegExp(`^own_page_lookups\\{result="${result}"\\} (\\d+)`, 'm').exec(text)?.[1]);
  return { hits: count('hit'), misses: count('miss'), shared: count('shared') };
}

/** A new free member of the server at `base`, signed up through the API: their session cookie. */
async function signUp(base: string, name: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email: newEmail('kept'), password: 'member-password-1' }),
  });
  expect(response.status).toBe(201);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

describe('pages kept for visitors', () => {
  it('gives every visitor the same page, and a member their own, never the other way round', async () => {
    const first = await visit(baseUrl(), '/courses');
    const second = await visit(baseUrl(), '/courses');
    expect(second.html).toBe(first.html);
    expect(second.response.headers.get('etag')).toBe(first.response.headers.get('etag'));
    expect(second.response.headers.get('cache-control')).toBe('private, no-cache');
    expect(second.response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);

    const page = await browser.newPage();
    await signInAsNewMember(page, 'Kept Apart');
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
    const member = await visit(baseUrl(), '/courses', cookie);
    expect(member.response.headers.get('etag')).toBeNull();
    expect(member.response.headers.get('content-security-policy')).toMatch(/'nonce-/);
    expect(member.html).toContain('Kept Apart');
    // The visitor's page is still the visitor's.
    const after = await visit(baseUrl(), '/courses');
    expect(after.html).not.toContain('Kept Apart');
    expect(after.html).toContain('Get Started Today');
  });
});

// On a server of its own: another test file's writes (a course published, a page edited) change
// what every dashboard shows, and would make a page these tests expect kept a fresh render.
describe('the dashboard kept for its member', () => {
  let site: SiteServer;
  beforeAll(async () => {
    site = await startSiteServer();
  });
  afterAll(async () => {
    await site?.stop();
  });
  const base = () => site.baseUrl;

  it("is the same page on a reload, never another member's, and fresh after the member's own write", async () => {
    const [first, second] = [await signUp(base(), 'Kept Dashboard One'), await signUp(base(), 'Kept Dashboard Two')];
    const mine = await visit(base(), '/dashboard', first);
    const again = await visit(base(), '/dashboard', first);
    expect(again.html).toBe(mine.html);
    expect(again.html).toContain('Kept Dashboard One');
    // Kept like a visitor's page: its inline scripts go by hash, never by a nonce sent twice.
    expect(again.response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    expect(again.response.headers.get('cache-control')).toBe('private, no-store');
    const theirs = await visit(base(), '/dashboard', second);
    expect(theirs.html).toContain('Kept Dashboard Two');
    expect(theirs.html).not.toContain('Kept Dashboard One');

    const enrolled = (html: string) => /data-stat="Courses Enrolled">(\d+)</.exec(html)?.[1];
    expect(enrolled(again.html)).toBe('0');
    const enrol = await fetch(`${base()}/api/courses/first-90-days/enrol`, { method: 'POST', headers: { cookie: first } });
    expect(enrol.status).toBe(200);
    expect(enrolled((await visit(base(), '/dashboard', first)).html)).toBe('1');
    expect(enrolled((await visit(base(), '/dashboard', second)).html)).toBe('0');
  });

  it('is rendered once when asked for several times at once, and each request gets that page', async () => {
    const cookie = await signUp(base(), 'Asked Four Times');
    // The member enrols: the dashboard kept since they signed in is stale.
    expect((await fetch(`${base()}/api/courses/first-90-days/enrol`, { method: 'POST', headers: { cookie } })).status).toBe(200);
    // Once the process has heard what the enrolment touched: until then every version counts as
    // changed, and a page rendered then is sent once, not kept, so none would be shared.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const before = await ownPageLookups(base());
    const pages = await Promise.all([1, 2, 3, 4].map(() => visit(base(), '/dashboard', cookie)));
    const after = await ownPageLookups(base());
    expect(pages.map(({ response }) => response.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(pages.map(({ html }) => html)).size).toBe(1);
    expect(pages[0]!.html).toContain('Asked Four Times');
    // One render: the first request's; the others waited for it or found it kept.
    expect(after.misses - before.misses - (after.shared - before.shared)).toBe(1);
    expect(after.hits - before.hits + (after.shared - before.shared)).toBe(3);
  });

  it("stays kept through another member's writes, and shows the member's own notifications at once, however they came", async () => {
    const lookups = async () => (await ownPageLookups(base())).hits;
    const [mine, other] = [await signUp(base(), 'Kept Through Others'), await signUp(base(), 'Busy Neighbour')];
    await visit(base(), '/dashboard', mine);
    expect((await visit(base(), '/dashboard', mine)).html).toContain('Kept Through Others');
    // Another member enrols: this member's kept dashboard is still the one served.
    expect((await fetch(`${base()}/api/courses/first-90-days/enrol`, { method: 'POST', headers: { cookie: other } })).status).toBe(200);
    // Once the process has heard what the enrolment touched (until then it counts everything as
    // changed, and renders afresh), the kept page is served.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const hitsBefore = await lookups();
    await visit(base(), '/dashboard', mine);
    expect(await lookups()).toBe(hitsBefore + 1);

    // Both take part in the community (staff give them Bronze); this member starts a discussion.
    const staff = await fetch(`${base()}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: E2E_ADMIN.email, password: E2E_ADMIN.password }),
    });
    const asStaff = { authorization: `Bearer ${((await staff.json()) as { token: string }).token}`, 'content-type': 'application/json' };
    const idOf = async (cookie: string) => {
      const { email } = (await (await fetch(`${base()}/api/auth/me`, { headers: { cookie } })).json()) as { email: string };
      const found = await fetch(`${base()}/api/admin/members?search=${encodeURIComponent(email)}`, { headers: asStaff });
      return ((await found.json()) as { id: string }[])[0]!.id;
    };
    for (const cookie of [mine, other]) {
      const tier = await fetch(`${base()}/api/admin/members/${await idOf(cookie)}/tier`, {
        method: 'POST',
        headers: asStaff,
        body: JSON.stringify({ membership_tier: 'bronze' }),
      });
      expect(tier.status).toBe(200);
    }
    const send = (cookie: string, path: string, body: object) =>
      fetch(`${base()}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const post = (await (await send(mine, '/api/community/posts', { title: 'Kept and told', body: 'Tell me.' })).json()) as { id: string };

    // The other member replies: this member's kept dashboard shows the bell's new count at once.
    const bell = (html: string) => /aria-label="Notifications(?:, (\d+) unread)?"/.exec(html)?.[1] ?? '0';
    const before = Number(bell((await visit(base(), '/dashboard', mine)).html));
    expect((await send(other, `/api/community/posts/${post.id}/replies`, { body: 'Told you.' })).status).toBe(201);
    await expect.poll(async () => Number(bell((await visit(base(), '/dashboard', mine)).html)), { timeout: 5000 }).toBeGreaterThan(before);
    // Read on another device (the API): the kept dashboard's bell is back to none.
    expect((await send(mine, '/api/notifications/read', {})).status).toBe(200);
    expect(bell((await visit(base(), '/dashboard', mine)).html)).toBe('0');

    // The other member likes this member's discussion, which the dashboard shows: its count is the new one.
    const liked = await fetch(`${base()}/api/community/posts/${post.id}/like`, { method: 'PUT', headers: { cookie: other } });
    expect(liked.status).toBe(200);
    const text = async () => (await visit(base(), '/dashboard', mine)).html.replaceAll('<!-- -->', '');
    await expect.poll(text, { timeout: 5000 }).toContain('♥ 1 · 1 replies');

    // The other member starts a discussion and likes it: the community's first page changes, which
    // this member's dashboard (showing their own discussions) does not show, so it stays kept.
    const theirs = (await (await send(other, '/api/community/posts', { title: 'Not on your dashboard', body: 'Mine.' })).json()) as {
      id: string;
    };
    await visit(base(), '/dashboard', mine);
    expect((await fetch(`${base()}/api/community/posts/${theirs.id}/like`, { method: 'PUT', headers: { cookie: other } })).status).toBe(
      200,
    );
    // Once the process has heard of the like (a reply to this member would show within a second), the kept page is served.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const hitsAfterLike = await lookups();
    expect(await text()).toContain('♥ 1 · 1 replies');
    expect(await lookups()).toBe(hitsAfterLike + 1);
  });
});

// Two server processes on one PostgreSQL database, when the tests have one (TEST_DATABASE_URL).
describe.runIf(process.env.TEST_DATABASE_URL)('pages kept by two servers on one PostgreSQL', () => {
  it('shows a change made on one server on the other within 2 seconds', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `rp_e2e_cache_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const env = { DATABASE_URL: withDatabase(url, name) };
    const [one, two] = [await startSiteServer(env), await startSiteServer(env)];
    try {
      const login = await fetch(`${one.baseUrl}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: E2E_ADMIN.email, password: E2E_ADMIN.password }),
      });
      const { token } = (await login.json()) as { token: string };
      expect((await visit(two.baseUrl, '/')).html).not.toContain('Edited on the first server');
      const saved = await fetch(`${one.baseUrl}/api/admin/content/homepage_hero`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(hero('Edited on the first server')),
      });
      expect(saved.status).toBe(200);
      await expect
        .poll(async () => (await visit(two.baseUrl, '/')).html, { timeout: 2000, interval: 100 })
        .toContain('Edited on the first server');
      // And a new member on the first server shows in the member count on the second.
      expect(
        (
          await fetch(`${one.baseUrl}/api/auth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Counted', email: newEmail('counted'), password: 'counted-123' }),
          })
        ).status,
      ).toBe(201);
      await expect.poll(async () => (await visit(two.baseUrl, '/')).html, { timeout: 2000, interval: 100 }).toContain('1+ Active Members');
    } finally {
      await Promise.all([one.stop(), two.stop()]);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
