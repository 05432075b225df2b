/**
 * A local Web Push service for tests, playing both halves of what sits behind a browser's
 * PushSubscription: the push service (RFC 8030) that checks the application server's VAPID token
 * (RFC 8292) and answers 201 Created, and the browser that holds the subscription's private key and
 * decrypts the aes128gcm payload (RFC 8291 / RFC 8188). API tests subscribe "browsers" here, hand
 * the subscriptions to the site, and read what the site pushed from `received`.
 *
 * The `web-push` library always sends with `https.request`, even to an http:// endpoint, so to reach
 * this plain-HTTP service it must be given `agent` (an https.Agent that opens plain TCP connections)
 * in its options. A sender that builds requests with `webpush.generateRequestDetails()` and sends
 * them with fetch needs nothing.
 */
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  verify,
  type ECDH,
} from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/** What `PushSubscription.toJSON()` gives in a browser, and what the browser posts to the site. */
interface PushSubscriptionJson {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** A push message the service accepted (201) and the subscribed browser decrypted. */
export interface PushMessage {
  endpoint: string;
  /** The TTL header, in seconds. */
  ttl: number;
  /** The Urgency header when sent (web-push always sends one, 'normal' by default). */
  urgency?: string;
  /** The Topic header when sent. */
  topic?: string;
  /** The VAPID JWT's `sub` claim, e.g. 'mailto:ops@example.com'. */
  vapidSubject: string;
  /** The VAPID JWT's `aud` claim: this service's origin. */
  vapidAudience: string;
  /** The `k=` public key (base64url) the JWT was verified with. */
  vapidPublicKey: string;
  /** The decrypted payload as UTF-8 text ('' for a push without a payload). */
  payload: string;
}

/** Every POST to an endpoint, whatever it was answered: for "did the site try?" and "why refused?". */
interface PushAttempt {
  endpoint: string;
  /** The status answered, or null for a request held by `hang()`. */
  status: number | null;
  /** Why the request was refused, for messages in failing tests. */
  reason?: string;
}

export interface PushService {
  /** e.g. http://127.0.0.1:43123 — the origin every endpoint is under and the VAPID `aud`. */
  url: string;
  /**
   * For web-push's `agent` option: web-push only speaks HTTPS, and this agent gives it plain TCP
   * connections so it can reach this http:// service. Production code must not use it.
   */
  agent: https.Agent;
  /**
   * Subscribes a new browser: a P-256 key pair and a 16-byte auth secret, as `PushSubscription.toJSON()`.
   * With `applicationServerKey` (the site's VAPID public key, base64url, as given to
   * `pushManager.subscribe()`), pushes signed with any other key are refused with 403.
   */
  subscribe(options?: { applicationServerKey?: string }): PushSubscriptionJson;
  /** Messages delivered so far, in order. */
  received: PushMessage[];
  /** Every push request so far, in order, with the status answered. */
  attempts: PushAttempt[];
  /** From now on the endpoint answers 410 Gone, as for a browser that unsubscribed. */
  gone(endpoint: string): void;
  /** From now on the endpoint answers 404 Not Found, as for an expired or unknown subscription. */
  notFound(endpoint: string): void;
  /** From now on the endpoint answers `status` (e.g. 500, 503, 429), with any extra headers (e.g. Retry-After). */
  fail(endpoint: string, status: number, headers?: Record<string, string>): void;
  /** From now on the endpoint reads each request and never answers, for timeout tests. */
  hang(endpoint: string): void;
  /** Undoes gone/notFound/fail/hang: the endpoint delivers again. */
  restore(endpoint: string): void;
  /** Resolves with the first received message matching `predicate`, polling; rejects after `timeoutMs`. */
  waitFor(predicate: (message: PushMessage) => boolean, timeoutMs?: number): Promise<PushMessage>;
  close(): Promise<void>;
}

interface Subscription {
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
  applicationServerKey?: Buffer;
}

type Override = { kind: 'status'; status: number; headers: Record<string, string> } | { kind: 'hang' };

/** A refusal with the status a real push service would answer. */
class Refusal extends Error {
  readonly status: number;
  constructor(status: number, reason: string) {
    super(reason);
    this.status = status;
  }
}

/** The most a push service must accept (RFC 8030 §7.2); larger bodies get 413. */
const MAX_BODY = 4096;
/** RFC 8292 §2: a token must not expire more than 24 hours after the request. */
const MAX_TOKEN_LIFE_SECONDS = 24 * 60 * 60;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);

/** An https.Agent whose connections are plain TCP, so an HTTPS-only client can reach an http:// server. */
class PlainTcpAgent extends https.Agent {
  override createConnection(options: https.RequestOptions): Duplex {
    return net.createConnection({ host: options.host ?? '127.0.0.1', port: Number(options.port) });
  }
}

export async function startPushService(): Promise<PushService> {
  const subscriptions = new Map<string, Subscription>();
  const overrides = new Map<string, Override>();
  const received: PushMessage[] = [];
  const attempts: PushAttempt[] = [];
  let url = '';

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const endpoint = url + new URL(request.url ?? '/', url).pathname;
      const attempt: PushAttempt = { endpoint, status: null };
      const override = overrides.get(endpoint);
      const answer = (status: number, headers: Record<string, string>, reason?: string) => {
        attempt.status = status;
        if (reason) attempt.reason = reason;
        const body = status === 201 ? '' : JSON.stringify({ code: status, error: http.STATUS_CODES[status], message: reason ?? '' });
        response.writeHead(status, { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }).end(body);
      };
      if (!endpoint.startsWith(`${url}/push/`)) return answer(404, {}, 'Not a push endpoint');
      attempts.push(attempt);
      if (override?.kind === 'hang') return; // keep the request open: the sender's timeout must fire
      if (override) return answer(override.status, override.headers, 'Set by the test');
      if (request.method !== 'POST') return answer(405, { allow: 'POST' }, 'Push messages are POSTed');
      try {
        const subscription = subscriptions.get(endpoint);
        if (!subscription) throw new Refusal(404, 'No such subscription');
        const message = accept(endpoint, subscription, request.headers, Buffer.concat(chunks), url);
        received.push(message);
        answer(201, { location: `${url}/message/${randomUUID()}`, ttl: String(message.ttl) });
      } catch (error) {
        if (error instanceof Refusal) answer(error.status, {}, error.message);
        else answer(500, {}, `The push service helper failed: ${String(error)}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new PlainTcpAgent();

  const endpointHere = (endpoint: string) => {
    if (!endpoint.startsWith(`${url}/push/`)) throw new Error(`${endpoint} is not an endpoint of the push service at ${url}`);
    return endpoint;
  };

  return {
    url,
    agent,
    subscribe(options = {}) {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${url}/push/${randomBytes(24).toString('base64url')}`;
      const applicationServerKey = options.applicationServerKey ? Buffer.from(options.applicationServerKey, 'base64url') : undefined;
      subscriptions.set(endpoint, { ecdh, publicKey, auth, ...(applicationServerKey ? { applicationServerKey } : {}) });
      return { endpoint, expirationTime: null, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } };
    },
    received,
    attempts,
    gone: (endpoint) => void overrides.set(endpointHere(endpoint), { kind: 'status', status: 410, headers: {} }),
    notFound: (endpoint) => void overrides.set(endpointHere(endpoint), { kind: 'status', status: 404, headers: {} }),
    fail(endpoint, status, headers = {}) {
      if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`fail() takes an error status, not ${status}`);
      overrides.set(endpointHere(endpoint), { kind: 'status', status, headers });
    },
    hang: (endpoint) => void overrides.set(endpointHere(endpoint), { kind: 'hang' }),
    restore: (endpoint) => void overrides.delete(endpointHere(endpoint)),
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() >= deadline) {
          const tried = attempts.map((a) => `${a.status ?? 'hung'}${a.reason ? ` (${a.reason})` : ''} ${a.endpoint}`);
          throw new Error(
            `No matching push message within ${timeoutMs} ms. ${received.length} received; attempts:\n  ${tried.join('\n  ') || '(none)'}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close() {
      agent.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // includes requests held by hang()
      return closed;
    },
  };
}

/** Checks a push request as a push service and decrypts it as the browser; throws a Refusal. */
function accept(
  endpoint: string,
  subscription: Subscription,
  headers: http.IncomingHttpHeaders,
  body: Buffer,
  origin: string,
): PushMessage {
  const vapid = verifyVapid(headers.authorization, origin);
  if (subscription.applicationServerKey && !sameBytes(subscription.applicationServerKey, vapid.publicKey)) {
    throw new Refusal(403, 'The VAPID key is not the applicationServerKey this subscription was made with');
  }
  const header = (name: string) => [headers[name] ?? []].flat().join(', ') || undefined;
  const ttlHeader = header('ttl');
  if (ttlHeader === undefined || !/^\d+$/.test(ttlHeader)) throw new Refusal(400, `Missing or invalid TTL header: ${ttlHeader}`);
  const urgency = header('urgency');
  if (urgency !== undefined && !URGENCIES.has(urgency)) throw new Refusal(400, `Invalid Urgency header: ${urgency}`);
  const topic = header('topic');
  if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) throw new Refusal(400, `Invalid Topic header: ${topic}`);
  if (body.length > MAX_BODY) throw new Refusal(413, `Payload of ${body.length} bytes; at most ${MAX_BODY}`);
  let payload = '';
  if (body.length > 0) {
    const encoding = header('content-encoding');
    if (encoding !== 'aes128gcm') throw new Refusal(400, `Content-Encoding must be aes128gcm, not ${encoding}`);
    payload = decrypt(body, subscription).toString('utf8');
  }
  return {
    endpoint,
    ttl: Number(ttlHeader),
    ...(urgency !== undefined ? { urgency } : {}),
    ...(topic !== undefined ? { topic } : {}),
    vapidSubject: vapid.subject,
    vapidAudience: vapid.audience,
    vapidPublicKey: vapid.publicKey.toString('base64url'),
    payload,
  };
}

/** RFC 8292: `Authorization: vapid t=<ES256 JWT>, k=<P-256 public key>`; any fault is 401. */
function verifyVapid(authorization: string | undefined, origin: string) {
  const scheme = /^vapid\s+(.*)$/is.exec(authorization ?? '');
  if (!scheme) throw new Refusal(401, authorization ? 'Authorization is not the vapid scheme' : 'Missing Authorization header');
  const params = new Map<string, string>();
  for (const part of scheme[1]!.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*(?:"([^"]*)"|([^\s"]*))\s*$/i.exec(part);
    if (match) params.set(match[1]!.toLowerCase(), match[2] ?? match[3] ?? '');
  }
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) throw new Refusal(401, 'The vapid Authorization needs t= and k=');

  const publicKey = Buffer.from(key, 'base64url');
  let keyObject;
  try {
    if (publicKey.length !== 65 || publicKey[0] !== 4) throw new Error('not an uncompressed point');
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33).toString('base64url'),
    };
    keyObject = createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw new Refusal(401, 'k= is not a P-256 public key');
  }

  const parts = token.split('.');
  if (parts.length !== 3) throw new Refusal(401, 'The VAPID token is not a JWT');
  const [encodedHeader, encodedClaims, encodedSignature] = parts as [string, string, string];
  const header = parseJson(encodedHeader);
  if (header?.alg !== 'ES256') throw new Refusal(401, `The VAPID token must be ES256, not ${String(header?.alg)}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  const signed = Buffer.from(`${encodedHeader}.${encodedClaims}`);
  if (signature.length !== 64 || !verify('sha256', signed, { key: keyObject, dsaEncoding: 'ieee-p1363' }, signature)) {
    throw new Refusal(401, 'The VAPID token signature does not verify with k=');
  }

  const claims = parseJson(encodedClaims);
  if (!claims) throw new Refusal(401, 'The VAPID token claims are not JSON');
  const { aud, exp, sub } = claims;
  if (aud !== origin) throw new Refusal(401, `The VAPID aud must be ${origin}, not ${String(aud)}`);
  const now = Math.floor(Date.now() / 1000);
  if (typeof exp !== 'number' || exp <= now) throw new Refusal(401, 'The VAPID token has expired or has no exp');
  if (exp > now + MAX_TOKEN_LIFE_SECONDS) throw new Refusal(401, 'The VAPID exp is more than 24 hours ahead');
  if (typeof sub !== 'string' || !/^(mailto:|https:)/.test(sub))
    throw new Refusal(401, `The VAPID sub must be a mailto: or https: URI, not ${String(sub)}`);
  return { subject: sub, audience: aud, publicKey };
}

function parseJson(base64url: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(base64url, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * RFC 8291 decryption of an RFC 8188 aes128gcm body, as the browser does:
 * header = salt(16) | rs(uint32) | idlen(1) | keyid (the sender's ephemeral P-256 public key, 65 bytes),
 * then one record: AES-128-GCM ciphertext of payload | 0x02 | zero padding, with a 16-byte tag.
 */
function decrypt(body: Buffer, subscription: Subscription): Buffer {
  const fail = (why: string): never => {
    throw new Refusal(400, `Cannot decrypt the payload: ${why}`);
  };
  if (body.length < 21) fail('shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20]!;
  if (keyIdLength !== 65) fail(`keyid must be the sender's 65-byte public key, not ${keyIdLength} bytes`);
  const senderPublicKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  if (recordSize < 18) fail(`record size ${recordSize} is under 18`);
  if (record.length < 17) fail('no ciphertext');
  if (record.length > recordSize) fail('more than one record (RFC 8291 allows one)');

  let sharedSecret: Buffer;
  try {
    sharedSecret = subscription.ecdh.computeSecret(senderPublicKey);
  } catch {
    return fail('keyid is not a P-256 public key');
  }
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.publicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, subscription.auth, keyInfo, 32));
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12)); // record 0: XOR 0

  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    plaintext = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    return fail('authentication failed (wrong keys or altered ciphertext)');
  }
  let end = plaintext.length;
  while (end > 0 && plaintext[end - 1] === 0) end--;
  if (end === 0 || plaintext[end - 1] !== 2) fail('the last record lacks the 0x02 delimiter');
  return plaintext.subarray(0, end - 1);
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
