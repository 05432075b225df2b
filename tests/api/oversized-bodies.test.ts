import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../helpers/multipart.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// A body over the limit, sent as a browser sends it (all of it, no `Expect: 100-continue`, and only
// then reading the answer), over a real socket: the client must read the 413 and its message, not a
// reset connection (EPIPE, the browser's "network error"). app.inject cannot show this: it has no socket.

const MB = 1024 * 1024;
const TOO_LARGE = { status: 413, detail: 'The request body is too large.' };
const FILE_TOO_LARGE = { status: 413, detail: 'The file is too large. The limit is 1 MB.' };
let t: TestApp;
let port: number;
let staffToken: string;

beforeAll(async () => {
  // Uploads limited to 1 MB here, so a 5 MB and a 50 MB file are both over it (and the server drains up to 64 MB).
  t = await createTestApp({ seed: false, env: { UPLOAD_MAX_MB: '1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
  staffToken = (await t.loginAsStaff()).token;
});
afterAll(() => t.close());

interface Sent {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

const json = (bytes: number): Sent => ({
  path: '/api/contact',
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ name: 'A', email: 'a@example.com', message: 'x'.repeat(bytes) })),
});
const upload = (bytes: number): Sent => {
  const { payload, headers } = multipartBody({ folder: 'general' }, { name: 'big.pdf', content: Buffer.alloc(bytes, 1) });
  return { path: '/api/admin/upload', headers: { ...headers, authorization: `Bearer ${staffToken}` }, body: payload };
};

/**
 * As Node's own clients do: the answer is read as soon as it comes, while the body is still being
 * sent. On a connection of its own (`agent: false`): a kept-alive one from an earlier test may be
 * closing, the server's keep-alive time being up, just as it is used again, and that reset would
 * say nothing of this answer.
 */
function fetched({ path, headers, body }: Sent): Promise<{ status: number; detail: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { ...headers, 'content-length': String(body.length) } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, detail: (JSON.parse(text) as { detail: string }).detail }));
        response.on('error', reject);
      },
    );
    // A reset before the whole answer came fails the test; once it came, the promise has settled.
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * As a browser does: the whole body is written before anything is read (the socket is paused), then
 * the answer is read. A server that closed its side meanwhile has reset the connection, and the
 * answer waiting in this side's buffer is lost: the promise rejects with the socket's error.
 */
function asBrowser({ path, headers, body }: Sent): Promise<{ status: number; detail: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    let received = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed after ${received.length} bytes of the answer`)));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString();
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      if (headEnd < 0 || length === undefined || received.length < headEnd + 4 + Number(length)) return;
      socket.removeAllListeners('close');
      socket.destroy();
      const payload = JSON.parse(text.slice(headEnd + 4, headEnd + 4 + Number(length))) as { detail: string };
      resolve({ status: Number(text.slice(9, 12)), detail: payload.detail });
    });
    const head = Object.entries({ host: `127.0.0.1:${port}`, ...headers, 'content-length': String(body.length) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    socket.write(body, () => socket.resume());
  });
}

describe('a body over the limit gets a 413 the client reads', () => {
  for (const size of [5 * MB, 50 * MB]) {
    it(`answers a ${size / MB} MB JSON body with its message, to a browser and to a client reading as it sends`, async () => {
      expect(await asBrowser(json(size))).toEqual(TOO_LARGE);
      expect(await fetched(json(size))).toEqual(TOO_LARGE);
    });

    it(`answers a ${size / MB} MB multipart upload with its message, to a browser and to a client reading as it sends`, async () => {
      expect(await asBrowser(upload(size))).toEqual(FILE_TOO_LARGE);
      expect(await fetched(upload(size))).toEqual(FILE_TOO_LARGE);
    });
  }

  it('answers a refusal sent before the body is read (no session) the same way', async () => {
    const unsigned = { ...upload(5 * MB), headers: { 'content-type': upload(0).headers['content-type']! } };
    expect((await asBrowser(unsigned)).status).toBe(401);
  });

  it('reads a large body for nothing only so far: a body declared larger than the bound is cut off at once', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    socket.resume();
    const started = Date.now();
    socket.write(`POST /api/contact HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${500 * MB}\r\n\r\n{`);
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads a body sent in chunks (no length said) for nothing only so far too', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let closed = false;
    socket.once('close', () => (closed = true));
    socket.on('error', () => {});
    socket.resume();
    socket.write(`POST /api/contact HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = Buffer.concat([Buffer.from(`${MB.toString(16)}\r\n`), Buffer.alloc(MB, 'x'), Buffer.from('\r\n')]);
    // The server drains up to 64 MB here: it must cut the connection well before three times that.
    let sent = 0;
    while (!closed && sent < 192 * MB) {
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
      sent += MB;
    }
    await new Promise((resolve) =>
      closed ? resolve(undefined) : socket.once('close', resolve).setTimeout(2_000, () => resolve(undefined)),
    );
    expect(closed, `still open after ${sent / MB} MB`).toBe(true);
    socket.destroy();
  });

  it('cuts off a client still sending the rest of a refused body after the time a request is given', async () => {
    const slow = await createTestApp({ seed: false, env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const socket = net.connect((slow.app.server.address() as net.AddressInfo).port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => {});
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const started = Date.now();
      socket.write(`POST /api/contact HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${5 * MB}\r\n\r\n`);
      socket.write(Buffer.alloc(2 * MB, 'x'));
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 413/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await slow.close();
    }
  });

  it('keeps serving afterwards', async () => {
    await asBrowser(json(5 * MB));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });
});
