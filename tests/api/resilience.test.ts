import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENTS_UNAVAILABLE, STORAGE_FULL } from '../../common/errors.ts';
import { isDatabaseUnavailable } from '../../db/database-errors.ts';
import { outboxMessages, uploadedFiles } from '../../db/schema.ts';
import { registerErrorHandling } from '../../server/http/errors.ts';
import { answerWithRequestId, requestIdGenerator } from '../../server/http/request-id.ts';
import { loadConfig } from '../../server/config.ts';
import { createStorage } from '../../server/files/create-storage.ts';
import { LocalDiskStorage, STORAGE_UNAVAILABLE } from '../../server/files/storage.ts';
import { multipartBody, PDF_BYTES } from '../helpers/multipart.ts';
import { startSmtpServer } from '../helpers/smtp-server.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// What the site does when something it depends on fails (docs/decisions/011): a clear 503 (or 507
// for a full disk) within a bounded time, nothing half written, and recovery by itself.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A port that accepts connections and never answers: a silent Stripe or SMTP server. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: a Stripe that refuses connections. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const stripeAt = (port: number) => ({
  STRIPE_SECRET_KEY: 'sk_test_resilience',
  STRIPE_WEBHOOK_SECRET: 'whsec_resilience',
  STRIPE_API_BASE: `http://127.0.0.1:${port}`,
});

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe('payments while Stripe is away', () => {
  for (const [name, start] of [
    ['refusing connections', async () => ({ port: await closedPort(), close: async () => {} })],
    ['accepting connections and never answering', silentServer],
  ] as const) {
    it(`answer checkout with a 503 that says so within 15 s, Stripe ${name}`, async () => {
      const stripe = await start();
      const t = await createTestApp({ seed: false, env: stripeAt(stripe.port) });
      try {
        const base = await listen(t);
        const member = await t.loginAs('free');
        // The member's own deadline: an answer that takes longer than this is no answer.
        const response = await fetch(`${base}/api/billing/checkout`, {
          method: 'POST',
          headers: { ...member.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ tier: 'silver', period: 'monthly' }),
          signal: AbortSignal.timeout(15_000),
        });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBeTruthy();
        expect(await response.json()).toEqual({ detail: PAYMENTS_UNAVAILABLE });
      } finally {
        await t.close();
        await stripe.close();
      }
    }, 60_000);
  }
});

describe('a full disk during an upload', () => {
  let t: TestApp;
  let uploads: string;
  let mounted = false;
  let staff: { authorization: string };

  beforeAll(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-full-disk-'));
    try {
      // A 512 KB disk of its own, filled by the first large upload (needs root; else a disk that is full from the start).
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', uploads], { stdio: 'ignore' });
      mounted = true;
    } catch {
      mounted = false;
    }
    t = await createTestApp({
      seed: false,
      storage: () =>
        mounted
          ? new LocalDiskStorage(uploads)
          : Object.assign(new LocalDiskStorage(uploads), {
              put: async () => {
                throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
              },
            }),
    });
    staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
  });
  afterAll(async () => {
    await t.close();
    if (mounted) execFileSync('umount', [uploads]);
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const upload = (content: Buffer) => {
    const body = multipartBody({ folder: 'ebooks' }, { name: 'Market Report.pdf', content });
    return t.app.inject({ method: 'POST', url: '/api/admin/upload', headers: { ...staff, ...body.headers }, payload: body.payload });
  };

  it('answers 507 with a message, and leaves no partial file and no row behind', async () => {
    const small = await upload(PDF_BYTES);
    if (mounted) expect(small.statusCode).toBe(201);
    const before = await t.db.select().from(uploadedFiles);

    const large = Buffer.concat([PDF_BYTES, Buffer.alloc(1024 * 1024, 0x20)]);
    const refused = await upload(large);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual({ detail: STORAGE_FULL });

    const leftOnDisk = fs.readdirSync(uploads, { recursive: true }).map(String);
    expect(leftOnDisk.filter((name) => name.endsWith('.partial'))).toEqual([]);
    expect(await t.db.select().from(uploadedFiles)).toHaveLength(before.length);
    // The store keeps working for what fits.
    if (mounted) expect((await upload(PDF_BYTES)).statusCode).toBe(201);
  });
});

describe('an upload while the bucket is away', () => {
  for (const [name, start] of [
    ['refusing connections', async () => ({ port: await closedPort(), close: async () => {} })],
    ['accepting connections and never answering', silentServer],
  ] as const) {
    it(`answers 503 that says so within the outbound timeout, the bucket ${name}, and stores no row`, async () => {
      const bucket = await start();
      const env = {
        S3_BUCKET: 'realtypocket-uploads',
        S3_ENDPOINT: `http://127.0.0.1:${bucket.port}`,
        S3_FORCE_PATH_STYLE: '1',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        OUTBOUND_TIMEOUT_SECONDS: '2',
      };
      const t = await createTestApp({ seed: false, env, storage: () => createStorage(loadConfig(env)) });
      try {
        const staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
        const body = multipartBody({ folder: 'ebooks' }, { name: 'Listing Guide.pdf', content: PDF_BYTES });
        const refused = await t.app.inject({
          method: 'POST',
          url: '/api/admin/upload',
          headers: { ...staff, ...body.headers },
          payload: body.payload,
        });
        expect(refused.statusCode).toBe(503);
        expect(refused.headers['retry-after']).toBeTruthy();
        expect(refused.json()).toEqual({ detail: STORAGE_UNAVAILABLE });
        expect(await t.db.select().from(uploadedFiles)).toHaveLength(0);
      } finally {
        await t.close();
        await bucket.close();
      }
    }, 60_000);
  }
});

describe('mail while the SMTP server is silent', () => {
  it('gives up on a try within the timeout and sends the message once the server answers again', async () => {
    const silent = await silentServer();
    const t = await createTestApp({
      seed: false,
      env: { SMTP_URL: `smtp://127.0.0.1:${silent.port}`, OUTBOUND_TIMEOUT_SECONDS: '1' },
      mailTiming: { pollMs: 200, retryBaseMs: 200 },
    });
    const smtp = await startSmtpServer();
    try {
      const email = uniqueEmail('silent-smtp');
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'Sam Silent', email, subject: 'Hello', message: 'Are you there?' },
        remoteAddress: '10.77.0.1',
      });
      expect(sent.statusCode).toBe(201);
      const attempts = async () => (await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email)))[0];
      await expect.poll(async () => (await attempts())?.attempts ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect((await attempts())!.status).toBe('pending');

      // The server comes back (at another address: the site is restarted with it, as an operator would).
      await silent.close();
      t.config.mail.smtpUrl = smtp.url;
      await t.restart();
      await smtp.waitFor(email);
      await expect.poll(async () => (await attempts())?.status, { timeout: 10_000 }).toBe('sent');
    } finally {
      await t.close();
      await smtp.close();
    }
  }, 60_000);
});

describe('request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, captureLogs: true });
  });
  afterAll(async () => t.close());

  it('gives every answer a unique id, written on the request log line, and ignores a client’s own without a trusted proxy', async () => {
    const first = await t.app.inject('/api/courses');
    const second = await t.app.inject({ url: '/api/courses', headers: { 'x-request-id': 'forged-id-1234' } });
    const [a, b] = [first.headers['x-request-id'], second.headers['x-request-id']];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
    expect(t.logs.some((line) => line.includes(`"reqId":"${String(a)}"`) && line.includes('"path":"/api/courses"'))).toBe(true);
  });

  it('takes the trusted proxy’s X-Request-Id, when it is a sensible one', async () => {
    const proxied = await createTestApp({ seed: false, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const passed = await proxied.app.inject({ url: '/livez', headers: { 'x-request-id': 'proxy-7f3a9c21' } });
      expect(passed.headers['x-request-id']).toBe('proxy-7f3a9c21');
      const odd = await proxied.app.inject({ url: '/livez', headers: { 'x-request-id': 'bad id\twith tabs' } });
      expect(odd.headers['x-request-id']).toMatch(UUID);
    } finally {
      await proxied.close();
    }
  });

  it('ignores an X-Request-Id sent by anyone but the trusted proxy', async () => {
    // The proxy is 10.0.0.7; this request comes from 127.0.0.1, around it.
    const aroundTheProxy = await createTestApp({ seed: false, env: { TRUST_PROXY: '10.0.0.7,192.168.0.0/16' } });
    try {
      const answer = await aroundTheProxy.app.inject({ url: '/livez', headers: { 'x-request-id': 'chosen-by-client-01' } });
      expect(answer.headers['x-request-id']).toMatch(UUID);
      const fromLoopbackProxy = await createTestApp({ seed: false, env: { TRUST_PROXY: 'loopback' } });
      try {
        const passed = await fromLoopbackProxy.app.inject({ url: '/livez', headers: { 'x-request-id': 'proxy-loopback-01' } });
        expect(passed.headers['x-request-id']).toBe('proxy-loopback-01');
      } finally {
        await fromLoopbackProxy.close();
      }
    } finally {
      await aroundTheProxy.close();
    }
  });

  it('is quoted in the answer to an unexpected failure, so a member can give it to support', async () => {
    const app = Fastify({ logger: false, genReqId: requestIdGenerator(undefined) });
    registerErrorHandling(app);
    answerWithRequestId(app);
    app.get('/broken', async () => {
      throw new Error('a bug');
    });
    const response = await app.inject('/broken');
    expect(response.statusCode).toBe(500);
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect(response.json().detail).toBe(
      `Something went wrong on our side. Please try again. (Reference: ${response.headers['x-request-id']})`,
    );
    await app.close();
  });
});

describe('health and metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { METRICS_TOKEN: 'metrics-token-for-tests' } });
  });
  afterAll(async () => t.close());

  it('answers liveness always and readiness while the database answers and the process is not stopping', async () => {
    expect((await t.app.inject('/livez')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    t.app.lifecycle.draining = true;
    try {
      const draining = await t.app.inject('/readyz');
      expect(draining.statusCode).toBe(503);
      expect(draining.json().status).toBe('draining');
      expect((await t.app.inject('/livez')).statusCode).toBe(200);
      // Answers close their connection, so keep-alive clients move to another process.
      expect((await t.app.inject('/api/courses')).headers.connection).toBe('close');
    } finally {
      t.app.lifecycle.draining = false;
    }
  });

  it('serves Prometheus metrics to the holder of the token only', async () => {
    await t.app.inject('/api/courses');
    expect((await t.app.inject('/metrics')).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-of-some-length' } })).statusCode).toBe(401);
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-token-for-tests' } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    for (const series of [
      /http_requests_total\{method="GET",route="\/api\/courses",status="200"\} \d+/,
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/courses",status="200"\}/,
      /db_pool_connections\{state="in_use"\} \d+/,
      /db_pool_waiting \d+/,
      /outbox_pending_messages \d+/,
      /outbox_oldest_pending_age_seconds \d+/,
      /nodejs_eventloop_lag_seconds \d/,
      /process_resident_memory_bytes \d+/,
    ]) {
      expect(metrics.body).toMatch(series);
    }
  });

  it('without a token, answers the machine itself only, and nobody when a proxy stands in front', async () => {
    const open = await createTestApp({ seed: false });
    const proxied = await createTestApp({ seed: false, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      expect((await open.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await open.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' })).statusCode).toBe(403);
      // Behind a proxy on the same machine every visitor arrives from 127.0.0.1.
      expect((await proxied.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(403);
    } finally {
      await open.close();
      await proxied.close();
    }
  });
});

describe('database failures', () => {
  it('are told apart from wrong queries', async () => {
    const pg = (await import('pg')).default;
    const refused = await new pg.Client({ host: '127.0.0.1', port: await closedPort(), connectionTimeoutMillis: 2000 })
      .connect()
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
  });
});
