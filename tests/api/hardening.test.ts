import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdf-text.ts';
import { createTestApp, uniqueEmail, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let member: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  member = await t.loginAs('gold');
});
afterAll(() => t.close());

describe('cross-site writes', () => {
  const enrol = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/courses/first-90-days/enrol', cookies: { rp_session: member.token }, headers });

  it('refuses a state-changing request sent with the session cookie from another site', async () => {
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const response = await enrol(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json()).toEqual({ detail: 'This request came from another site, so it was refused.' });
    }
    // The logout and the admin's "handled" are refused the same way.
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { rp_session: member.token },
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(logout.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/auth/me', headers: member.headers })).statusCode).toBe(200);
  });

  it('accepts the same request from the site itself, and Bearer clients whatever their origin', async () => {
    expect((await enrol({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await enrol({ origin: t.config.publicUrl })).statusCode).toBe(200);
    const bearer = await t.app.inject({
      method: 'POST',
      url: '/api/courses/first-90-days/enrol',
      headers: { ...member.headers, origin: 'https://app.example' },
    });
    expect(bearer.statusCode).toBe(200);
  });
});

describe('personalised answers', () => {
  it.each(['/api/auth/me', '/api/resources', '/api/courses/first-90-days/lessons', '/api/me/enrolments', '/api/community/posts'])(
    '%s is never stored by a shared cache',
    async (url) => {
      const response = await t.app.inject({ url, headers: member.headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(String(response.headers.vary)).toMatch(/Cookie/);
    },
  );
});

describe('cookies in production', () => {
  it('are Secure, HttpOnly and __Host- prefixed even when the request came over plain HTTP', async () => {
    const production = await createTestApp({ seed: false, env: { NODE_ENV: 'production' } });
    try {
      const response = await production.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Prod Member', email: uniqueEmail('prod'), password: 'secret12' },
      });
      expect(response.statusCode).toBe(201);
      const cookie = response.cookies.find((candidate) => candidate.name === '__Host-rp_session');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
      expect(cookie?.domain).toBeUndefined();
      const me = await production.app.inject({ url: '/api/auth/me', cookies: { '__Host-rp_session': cookie!.value } });
      expect(me.statusCode).toBe(200);
    } finally {
      await production.close();
    }
  });
});

describe('slow clients', () => {
  it('cuts off a client that sends its headers and then only part of its body', async () => {
    const slow = await createTestApp({ seed: false, env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = slow.app.server.address() as net.AddressInfo;
      const socket = net.connect(port, '127.0.0.1');
      const started = Date.now();
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write('POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      await closed;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await slow.close();
    }
  });
});

describe('logs', () => {
  it('never carry query strings, cookies, tokens, or the parameters of a failed query', async () => {
    const logged = await createTestApp({ seed: false, captureLogs: true });
    try {
      await logged.app.inject({
        url: '/api/courses?token=query-secret-value',
        cookies: { rp_session: 'cookie-secret-value' },
        headers: { authorization: 'Bearer bearer-secret-value' },
      });
      // A database failure in the middle of a sign-up: the insert carried the email and the password hash.
      await logged.db.execute(sql`alter table members rename to members_moved_away`);
      const email = uniqueEmail('logged');
      const failed = await logged.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { name: 'Log Test', email, password: 'secret12' },
      });
      expect(failed.statusCode).toBe(500);
      await logged.db.execute(sql`alter table members_moved_away rename to members`);
      const text = logged.logs.join('\n');
      expect(text).toContain('"path":"/api/courses"');
      expect(text).toContain('request failed');
      for (const secret of ['query-secret-value', 'cookie-secret-value', 'bearer-secret-value', email, '$argon2id$']) {
        expect(text, secret).not.toContain(secret);
      }
      // One line per request.
      expect(logged.logs.filter((line) => line.includes('"path":"/api/courses"'))).toHaveLength(1);
    } finally {
      await logged.close();
    }
  });
});

describe('absolute links', () => {
  it('print the certificate verification link from PUBLIC_URL, whatever Host the request names', async () => {
    const site = await createTestApp({ env: { PUBLIC_URL: 'https://learn.realtypocket.test' } });
    try {
      const learner = await site.loginAs('free', { name: 'Link Checker' });
      const post = (url: string) => site.app.inject({ method: 'POST', url, headers: learner.headers });
      await post('/api/courses/first-90-days/enrol');
      let code = '';
      for (let lesson = 1; lesson <= 6; lesson++)
        code = (await post(`/api/lessons/first-90-days-l${lesson}/complete`)).json().certificate_code;
      const pdf = await site.app.inject({ url: `/api/certificates/${code}/pdf`, headers: { ...learner.headers, host: 'evil.example' } });
      expect(pdf.statusCode).toBe(200);
      const text = pdfText(pdf.rawPayload);
      expect(text).toContain(`Verify at https://learn.realtypocket.test/certificates/${code}`);
      expect(text).not.toContain('evil.example');
    } finally {
      await site.close();
    }
  });
});
