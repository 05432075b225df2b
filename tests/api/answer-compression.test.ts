import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// A member's API answer is compressed in one call, sized to the answer (server/http/answer-compression.ts):
// what the client gets must be the same answer in the encoding it asked for, marked so that no cache
// hands it to a client that asked for another encoding or to someone else.

let t: TestApp;
let member: MemberLogin;
beforeAll(async () => {
  t = await createTestApp();
  member = await t.loginAs('gold');
}, 60_000);
afterAll(() => t.close());

const feed = (encoding?: string) =>
  t.app.inject({ url: '/api/community/feed', headers: { ...member.headers, ...(encoding && { 'accept-encoding': encoding }) } });

describe("a member's API answer", () => {
  it('goes out as brotli or gzip, as the client prefers, and reads back as the same answer', async () => {
    const plain = await feed();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await feed('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gzip = await feed('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('names both the encoding and the credentials it varies with, and stays private', async () => {
    const answer = await feed('br');
    const vary = String(answer.headers.vary).toLowerCase();
    expect(vary).toContain('accept-encoding');
    expect(vary).toContain('cookie');
    expect(vary).toContain('authorization');
    expect(answer.headers['cache-control']).toBe('private, no-store');
  });

  it('goes out as it is when the client takes no compression, or when it is too small to gain', async () => {
    const identity = await feed('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toHaveProperty('posts');

    const small = await t.app.inject({ url: '/api/auth/me', headers: { ...member.headers, 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ email: member.email });
  });
});
