import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestByHand } from '../helpers/by-hand.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// A visitor's read of a kept public API answer is given at the front door, before the framework
// (server/cache/shared-api-answers.ts): it must be the answer the app itself gives (app.inject goes
// around the HTTP server, so it is the app's), counted and logged like any other, and never given to
// someone signed in or by a process that is stopping.

let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp({ captureLogs: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders;
  body: Buffer;
}

/** A request over HTTP, its body as sent (not decompressed). */
function overHttp(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}${path}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A GET written by hand: a header twice, or in capitals. */
const byHand = (path: string, headerLines: string[]) => requestByHand(origin, { method: 'GET', path, headerLines });

/** The same request given to the app itself. */
async function inApp(path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET'): Promise<RawAnswer> {
  const answer = await t.app.inject({ method, url: path, headers });
  return { status: answer.statusCode, headers: answer.headers, body: answer.rawPayload };
}

// What differs between any two answers, or belongs to the connection rather than the answer.
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding']);
const comparable = (headers: RawAnswer['headers']) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name)));

async function kept(path: string) {
  await expect.poll(async () => (await overHttp(path)).headers.etag, { timeout: 5_000 }).toBeDefined();
}

const requestsCounted = async (status: number) => {
  const text = (await t.app.inject({ url: '/metrics' })).body;
  const line = new RegExp(`^http_requests_total\\{method="GET",route="/api/courses",status="${status}"\\} (\\d+)$`, 'm').exec(text);
  return Number(line?.[1] ?? 0);
};

describe('a kept answer given at the front door', () => {
  it('is the answer the app gives, in each encoding, as a 304 and to a HEAD', async () => {
    await kept('/api/courses?page=1');
    for (const encoding of ['br, gzip, deflate', 'gzip', 'identity']) {
      const door = await overHttp('/api/courses?page=1', { 'accept-encoding': encoding });
      const app = await inApp('/api/courses?page=1', { 'accept-encoding': encoding });
      expect(door.status, encoding).toBe(200);
      expect(comparable(door.headers), encoding).toEqual(comparable(app.headers));
      expect(door.body.equals(app.body), encoding).toBe(true);
      expect(door.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const { etag } = (await overHttp('/api/courses?page=1')).headers;
    const door = await overHttp('/api/courses?page=1', { 'if-none-match': etag!, 'accept-encoding': 'br' });
    const app = await inApp('/api/courses?page=1', { 'if-none-match': etag!, 'accept-encoding': 'br' });
    expect(door.status).toBe(304);
    expect(door.body.length).toBe(0);
    expect(comparable(door.headers)).toEqual(comparable(app.headers));

    // A validator sent in capitals, or twice, is read as the app reads it.
    expect((await byHand('/api/courses?page=1', [`IF-NONE-MATCH: ${etag!}`])).status).toMatch(/^HTTP\/1\.1 304/);
    expect((await byHand('/api/courses?page=1', [`If-None-Match: ${etag!}`, 'If-None-Match: "other"'])).status).toMatch(/^HTTP\/1\.1 200/);

    const head = await overHttp('/api/courses?page=1', { 'accept-encoding': 'br' }, 'HEAD');
    const whole = await overHttp('/api/courses?page=1', { 'accept-encoding': 'br' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(whole.headers['content-length']);
    expect(head.headers.etag).toBe(whole.headers.etag);
  });

  it('counts each answer in the metrics and logs it with its request id, never its query string', async () => {
    await kept('/api/courses?secret-looking=1');
    const [ok, unchanged] = [await requestsCounted(200), await requestsCounted(304)];
    const answers = await Promise.all(Array.from({ length: 5 }, () => overHttp('/api/courses?secret-looking=1')));
    const { etag } = answers[0]!.headers;
    await overHttp('/api/courses?secret-looking=1', { 'if-none-match': etag! });
    expect(await requestsCounted(200)).toBe(ok + 5);
    expect(await requestsCounted(304)).toBe(unchanged + 1);

    const lines = t.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const answer of answers) {
      const line = lines.find((entry) => entry.reqId === answer.headers['x-request-id']);
      expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/api/courses', status: 200 });
    }
    expect(t.logs.join('\n')).not.toContain('secret-looking');
  });

  it("never gives it to a member, whose cookie or token may change the answer, and a member's answer is never kept", async () => {
    await kept('/api/courses');
    const member = await t.loginAs('gold');
    const byCookie = await overHttp('/api/courses', { cookie: `${t.app.siteCookies.names.member}=${member.token}` });
    const byToken = await overHttp('/api/courses', member.headers);
    for (const answer of [byCookie, byToken]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.etag).toBeUndefined();
      expect(answer.headers['cache-control']).toBe('private, no-store');
    }
    // However the headers are written: the session in a second Cookie line, in capitals.
    await kept('/api/courses');
    const secondLine = await byHand('/api/courses', ['Cookie: theme=dark', `COOKIE: ${t.app.siteCookies.names.member}=${member.token}`]);
    expect(secondLine.head).toContain('cache-control: private, no-store');
    expect(secondLine.head).not.toContain('etag:');
    const inCapitals = await byHand('/api/courses', [`AUTHORIZATION: ${member.headers.authorization}`]);
    expect(inCapitals.head).not.toContain('etag:');
    // Another cookie (a site's analytics, say) is no reason to go round the door.
    await kept('/api/courses');
    expect((await overHttp('/api/courses', { cookie: 'theme=dark' })).headers.etag).toBeDefined();
  });

  it('shows a change at once, and once the process stops, sends each request through the app to close its connection', async () => {
    await kept('/api/courses');
    const staff = await t.loginAsStaff();
    const course = ((await inApp('/api/courses')).body.toString('utf8').match(/"id":"([^"]+)"/) ?? [])[1]!;
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/courses/${course}`,
      headers: { authorization: `Bearer ${staff.token}` },
      payload: { title: 'Renamed at once' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await overHttp('/api/courses')).body.toString('utf8')).toContain('Renamed at once');

    await kept('/api/courses');
    t.app.lifecycle.draining = true;
    try {
      const answer = await overHttp('/api/courses');
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).toBe('close');
    } finally {
      t.app.lifecycle.draining = false;
    }
  });
});
