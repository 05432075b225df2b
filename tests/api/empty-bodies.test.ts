import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestByHand } from '../helpers/by-hand.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// A request that names neither a length nor chunks has no body, and the HTTP server gives it already
// read (server/http/http-server.ts). Whatever would have read its body must read an empty one and
// answer as it answers `content-length: 0`, never wait for an end that does not come. (A page's
// form action: tests/e2e/forms.test.ts.)

let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => t.close());

/** The same request without a length, and with `content-length: 0`: each answer's status line and body. */
async function withoutAndWithLength(method: string, path: string, headerLines: string[]) {
  const answer = async (lines: string[]) => {
    const { status, body } = await requestByHand(origin, { method, path, headerLines: lines });
    return `${status} ${body}`;
  };
  return { without: await answer(headerLines), withLength: await answer([...headerLines, 'Content-Length: 0']) };
}

describe('a request without a body', () => {
  it('that names JSON is answered as an empty body is', async () => {
    const { without, withLength } = await withoutAndWithLength('POST', '/api/auth/login', ['Content-Type: application/json']);
    expect(without).toMatch(/^HTTP\/1\.1 400 /);
    expect(without).toContain('The request body is empty.');
    expect(without).toBe(withLength);
  });

  it('that names a form upload is refused with a message, not kept waiting', async () => {
    const staff = await t.loginAsStaff();
    const { without, withLength } = await withoutAndWithLength('POST', '/api/admin/upload', [
      `Authorization: Bearer ${staff.token}`,
      'Content-Type: multipart/form-data; boundary=nothing',
    ]);
    expect(without).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(without.replace(/"requestId":"[^"]*"/, '')).toBe(withLength.replace(/"requestId":"[^"]*"/, ''));
  });
});
