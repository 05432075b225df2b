import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { PAYMENTS_UNAVAILABLE, STORAGE_FULL } from '../../common/errors.ts';
import { freePort } from '../helpers/free-port.ts';
import { multipartBody, PDF_BYTES } from '../helpers/multipart.ts';
import { startSmtpServer } from '../helpers/smtp-server.ts';
import {
  call,
  cleanupAll,
  describeOutcome,
  freshAddress,
  now,
  OWNER,
  pending,
  pollUntil,
  registerMembers,
  startPostgres,
  startServer,
  summarizeOutput,
  type PostgresCluster,
  type ServerProcess,
} from './harness.ts';

// The site's neighbours other than PostgreSQL and Redis, failing under real server processes
// (server/main.ts, NODE_ENV=production, default timeouts): Stripe refusing connections and Stripe
// silent, an SMTP server that accepts and never answers and then comes back, and a full disk under
// the uploads. Each case has its own process and database on one cluster, and the cases run side
// by side. The SMTP case waits out the mail worker's retry (30 s) and sets the file's length, so its
// server starts first, alone, before the others compete for the machine.

/** The issue's bound for an answer while Stripe is away (the default OUTBOUND_TIMEOUT_SECONDS is 10). */
const STRIPE_ANSWER_WITHIN_MS = 15_000;
/** A password reset is queued, not sent inline: it answers well within the SMTP timeout (10 s by default). */
const QUEUED_WITHIN_MS = 3_000;
/** A queued mail goes out within a minute of SMTP returning. */
const MAIL_AFTER_RETURN_MS = 60_000;

let cluster: PostgresCluster;
let databases = 0;
let silentSmtp: Awaited<ReturnType<typeof silentListener>>;
let smtpCase: { server: ServerProcess; databaseUrl: string; port: number };

beforeAll(async () => {
  cluster = await startPostgres();
  // The SMTP case's server, started with SMTP_URL at a port where a silent server listens.
  const port = await freePort();
  silentSmtp = await silentListener(port);
  const databaseUrl = await freshDatabase();
  const server = await startServer({ name: 'smtp', databaseUrl, env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  smtpCase = { server, databaseUrl, port };
});
afterAll(async () => {
  await cleanupAll();
  await silentSmtp?.close();
});

/** A database of its own on the cluster, for one case's server process. */
async function freshDatabase(): Promise<string> {
  const name = `neighbours_${++databases}`;
  await cluster.query(`create database ${name}`);
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Listens on `port` (any free one when 0); `close()` also cuts the connections it holds. */
async function listenOn(
  port: number,
  onConnection: (socket: net.Socket, held: Set<net.Socket>) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const held = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    held.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => held.delete(socket));
    onConnection(socket, held);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of held) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A server that accepts connections and never sends a byte: a silent Stripe or SMTP server. */
const silentListener = (port = 0) => listenOn(port, () => {});

/** Passes every connection on `port` through to `targetPort`: the test SMTP server, reachable at the address the site was given. */
const forwarder = (port: number, targetPort: number) =>
  listenOn(port, (client, held) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    held.add(upstream);
    upstream.on('close', () => held.delete(upstream));
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.pipe(upstream).pipe(client);
  });

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Whether the process still runs and answers /livez 200. */
async function alive(server: ServerProcess): Promise<string> {
  const livez = await call(server, 'GET', '/livez', { timeoutMs: 5000 });
  return (await pending(server.exited)) ? `running, /livez ${describeOutcome(livez)}` : `exited (${server.howExited()})`;
}

describe.concurrent('the site’s neighbours failing, real server processes', () => {
  for (const [name, stripeAway] of [
    ['refusing connections', async () => ({ port: await freePort(), close: async () => {} })],
    ['accepting connections and never answering', () => silentListener()],
  ] as const) {
    it(`answers a member’s checkout with a 503 that says payments are unavailable, with Retry-After, within 15 s, Stripe ${name}; the process lives on`, async (context) => {
      const stripe = await stripeAway();
      context.onTestFinished(() => stripe.close());
      const server = await startServer({
        name: `stripe ${name.split(' ')[0]}`,
        databaseUrl: await freshDatabase(),
        env: {
          STRIPE_SECRET_KEY: 'sk_test_fault_lane',
          STRIPE_WEBHOOK_SECRET: 'whsec_fault_lane',
          STRIPE_API_BASE: `http://127.0.0.1:${stripe.port}`,
        },
      });
      const [member] = await registerMembers(server, cluster, 1, { tier: 'free', label: `stripe-${name.split(' ')[0]}` });
      // Once the start's own load of the plan prices has given up (in the background when Stripe is
      // slow), so the checkout meets Stripe away with tries of its own: the longest wait a member has.
      await pollUntil(async () => server.output().includes('could not load the Stripe prices'), 20_000, 100);
      const checkout = await call(server, 'POST', '/api/billing/checkout', {
        token: member!.token,
        address: member!.address,
        body: { tier: 'silver', period: 'monthly' },
        // The member's own deadline: an answer later than this is no answer.
        timeoutMs: STRIPE_ANSWER_WITHIN_MS,
      });
      const after = await alive(server);
      console.log(
        `Stripe ${name}: checkout → ${describeOutcome(checkout)} after ${seconds(checkout.durationMs)}; then ${after}\n` +
          summarizeOutput(server.output()),
      );

      context.expect(describeOutcome(checkout)).toMatch(/^503 /);
      context.expect(checkout.detail).toBe(PAYMENTS_UNAVAILABLE);
      context.expect(checkout.retryAfter).toBeTruthy();
      context.expect(checkout.durationMs).toBeLessThan(STRIPE_ANSWER_WITHIN_MS);
      context.expect(after).toBe('running, /livez 200');
    });
  }

  it('answers a password reset at once while SMTP is silent, and delivers its mail within 60 s of SMTP returning on the same port, same process', async (context) => {
    const { server, databaseUrl, port: smtpPort } = smtpCase;
    const smtp = await startSmtpServer();
    context.onTestFinished(() => smtp.close());
    const [member] = await registerMembers(server, cluster, 1, { tier: 'free', label: 'smtp' });
    const email = member!.email;

    const asked = await call(server, 'POST', '/api/auth/password-reset', { body: { email }, address: freshAddress(), timeoutMs: 15_000 });
    context.expect(describeOutcome(asked)).toBe('200');
    context.expect(asked.durationMs, 'ms the reset request took (the SMTP server is silent)').toBeLessThan(QUEUED_WITHIN_MS);

    // The outage is felt: a try of the reset mail failed on the silent server (after the SMTP timeout).
    const resetMail = async () =>
      (
        await query<{ id: string; status: string; attempts: number }>(
          databaseUrl,
          `select id, status, attempts from outbox_messages where kind = 'password-reset' and to_address = $1`,
          [email],
        )
      )[0];
    const triedAt = await pollUntil(async () => ((await resetMail())?.attempts ?? 0) >= 1, 45_000, 250);
    const tried = await resetMail();
    context.expect(triedAt, `the reset mail was never tried on the silent server: ${JSON.stringify(tried)}`).toBeDefined();
    context.expect(tried?.status).toBe('pending');
    context.expect(smtp.to(email)).toEqual([]);

    // SMTP comes back at the address the site was started with; the site is not restarted.
    await silentSmtp.close();
    const back = await forwarder(smtpPort, smtp.port);
    context.onTestFinished(() => back.close());
    const returnedAt = now();
    const arrivedAt = await pollUntil(
      // The site sends each message with its outbox id as Message-ID.
      async () => smtp.to(email).some((mail) => mail.messageId?.startsWith(`<${tried?.id}@`)),
      MAIL_AFTER_RETURN_MS + 5_000,
      250,
    );
    const settled = await resetMail();
    const after = await alive(server);
    console.log(
      `SMTP silent: reset request → ${describeOutcome(asked)} after ${Math.round(asked.durationMs)} ms; ` +
        `first try failed ${seconds(triedAt! - asked.at)} after it; SMTP back, the mail arrived ` +
        `${arrivedAt === undefined ? 'never' : `${seconds(arrivedAt - returnedAt)} after`} (outbox: ${JSON.stringify(settled)}); then ${after}\n` +
        summarizeOutput(server.output()),
    );

    context
      .expect(arrivedAt === undefined ? Infinity : arrivedAt - returnedAt, 'ms from SMTP’s return to the reset mail')
      .toBeLessThanOrEqual(MAIL_AFTER_RETURN_MS);
    context.expect(settled?.status).toBe('sent');
    context.expect(after).toBe('running, /livez 200');
  });

  it('answers an upload bigger than the free disk with 507 and a message, leaves no file and no row, and takes a small upload afterwards', async (context) => {
    // DATA_DIR of its own, with the uploads on a 1 MB tmpfs (mounting needs root).
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-fault-disk-'));
    const uploads = path.join(dataDir, 'uploads');
    fs.mkdirSync(uploads);
    let mounted = false;
    // Run last (onTestFinished callbacks run in reverse order), once the server process is stopped.
    context.onTestFinished(() => {
      if (mounted) {
        try {
          execFileSync('umount', [uploads], { stdio: 'ignore' });
        } catch {
          // still in use (a process that would not stop): detach it now, the kernel frees it once unused
          execFileSync('umount', ['-l', uploads], { stdio: 'ignore' });
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', uploads], { stdio: 'pipe' });
      mounted = true;
    } catch (error) {
      const why = ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim();
      console.warn(`full disk case skipped: could not mount a small tmpfs for the uploads (${why}); this case needs root`);
      context.skip(`could not mount a small tmpfs (needs root): ${why}`);
    }

    const databaseUrl = await freshDatabase();
    const server = await startServer({ name: 'disk', databaseUrl, env: { DATA_DIR: dataDir } });
    context.onTestFinished(() => server.stop());
    const login = await call(server, 'POST', '/api/admin/login', { body: OWNER, address: freshAddress() });
    const token = (login.json as { token?: string } | undefined)?.token;
    if (!token) throw new Error(`staff sign-in answered ${describeOutcome(login)}`);
    const upload = async (content: Buffer) => {
      const body = multipartBody({ folder: 'ebooks' }, { name: 'Market Report.pdf', content });
      const startedAt = now();
      const answer = await fetch(`${server.url}/api/admin/upload`, {
        method: 'POST',
        headers: { ...body.headers, authorization: `Bearer ${token}` },
        body: body.payload,
        signal: AbortSignal.timeout(15_000),
      });
      const json = (await answer.json().catch(() => undefined)) as { detail?: string } | undefined;
      return { status: answer.status, detail: json?.detail, ms: Math.round(now() - startedAt) };
    };
    const onDisk = () => fs.readdirSync(uploads, { recursive: true }).map(String).sort();
    const rows = async () => (await query<{ n: number }>(databaseUrl, 'select count(*)::int as n from uploaded_files'))[0]!.n;

    const first = await upload(PDF_BYTES);
    context.expect(first.status, `a small upload first: ${JSON.stringify(first)}`).toBe(201);
    const [filesBefore, rowsBefore] = [onDisk(), await rows()];
    const free = fs.statfsSync(uploads).bavail * fs.statfsSync(uploads).bsize;
    const large = Buffer.concat([PDF_BYTES, Buffer.alloc(free + 512 * 1024, 0x20)]);
    const refused = await upload(large);
    const [filesAfter, rowsAfter] = [onDisk(), await rows()];
    const small = await upload(PDF_BYTES);
    const after = await alive(server);
    console.log(
      `Full disk: ${Math.round(free / 1024)} KB free, ${Math.round(large.length / 1024)} KB upload → ${refused.status} "${refused.detail}" ` +
        `after ${refused.ms} ms; files ${filesBefore.length} → ${filesAfter.length}, rows ${rowsBefore} → ${rowsAfter}; ` +
        `a small upload then → ${small.status}; ${after}\n${summarizeOutput(server.output())}`,
    );

    context.expect(refused.status).toBe(507);
    context.expect(refused.detail).toBe(STORAGE_FULL);
    context.expect(filesAfter.filter((file) => file.endsWith('.partial'))).toEqual([]);
    context.expect(filesAfter).toEqual(filesBefore);
    context.expect(rowsAfter).toBe(rowsBefore);
    context.expect(small.status).toBe(201);
    context.expect(after).toBe('running, /livez 200');
  });
});
