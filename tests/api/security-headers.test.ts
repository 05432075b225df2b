import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPageApp, type PageApp } from '../helpers/page-app.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// The headers a browser reads before it trusts an answer, on every kind of answer: a page for
// everyone, a member's own page, an API answer (an error too) and a stored file. The site runs in
// production here, behind HTTPS, as it is deployed.

let t: TestApp;
let site: PageApp;
let gold: MemberLogin;
let video: string;
beforeAll(async () => {
  t = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL: 'https://learn.realtypocket.test' } });
  site = await startPageApp(t);
  gold = await t.loginAs('gold');
  const lessons = (await t.app.inject({ url: '/api/courses/luxury-market/lessons', headers: gold.headers })).json() as {
    video_url: string | null;
  }[];
  video = lessons.find((lesson) => lesson.video_url)!.video_url!;
}, 120_000);
afterAll(async () => {
  await site.close();
  await t.close();
});

const HSTS = 'max-age=31536000; includeSubDomains';
/** The site's policy with this script-src, as a browser reads it: no other site frames it, no plugin runs. */
const policy = (scriptSrc: string) =>
  `default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data: https:;` +
  `object-src 'none';script-src ${scriptSrc};script-src-attr 'none';style-src 'self' 'unsafe-inline';media-src 'self' https: blob:;` +
  `frame-src https://open.spotify.com https://www.youtube-nocookie.com https://player.vimeo.com;connect-src 'self'`;
/** A stored file: nothing in it runs, even an HTML or SVG file opened on its own. */
const FILE_POLICY = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

function expectSiteHeaders(headers: Record<string, unknown>, csp: string) {
  expect(headers).toMatchObject({
    'strict-transport-security': HSTS,
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
  });
}

/** A page's CSP allows its own scripts and the inline ones with this answer's nonce, which the page carries. */
function expectPageHeaders(response: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(200);
  const nonce = /<script nonce="([^"]+)"/.exec(response.body)?.[1];
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{20,}={0,2}$/);
  expectSiteHeaders(response.headers, policy(`'self' 'nonce-${nonce}'`));
  return nonce!;
}

// Pages render in development mode here (no build): seconds each on a busy machine.
describe('security headers', { timeout: 120_000 }, () => {
  it('are on a page that runs the app, with a new script nonce for each answer', async () => {
    const first = expectPageHeaders(await site.app.inject({ url: '/courses' }));
    const second = expectPageHeaders(await site.app.inject({ url: '/courses' }));
    expect(second).not.toBe(first);
  });

  it("are on a visitor's plain home page, which has no inline script at all (decision 027)", async () => {
    const home = await site.app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toMatch(/<script src="\/page-enhancer\.js\?v=[0-9a-f]{12}"/);
    expect(home.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(String(home.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(home.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('are on a member’s own page', async () => {
    const page = await site.app.inject({ url: '/dashboard', cookies: { '__Host-rp_session': gold.token } });
    expectPageHeaders(page);
    expect(page.body).toContain(gold.name);
  });

  it('are on API answers, refusals and broken requests included', async () => {
    const answers = [
      await t.app.inject({ url: '/api/auth/me', headers: gold.headers }),
      await t.app.inject({ url: '/api/auth/me' }),
      await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 400]);
    for (const answer of answers) expectSiteHeaders(answer.headers, policy("'self'"));
  });

  it('are on a stored file, with a policy of its own that runs nothing and keeps it from other sites’ frames', async () => {
    const file = await t.app.inject({ url: video, headers: gold.headers });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/webm');
    expectSiteHeaders(file.headers, FILE_POLICY);
  });
});

describe('HSTS', () => {
  it('is sent only in production: a development or test server (plain http on a laptop) sends none', async () => {
    const local = await createTestApp({ seed: false });
    try {
      const answer = await local.app.inject({ url: '/api/courses' });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expect(answer.headers['content-security-policy']).toBe(policy("'self'"));
    } finally {
      await local.close();
    }
  });
});
