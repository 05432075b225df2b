/**
 * Hand-run check of the local push service against the real web-push library:
 *   ./node_modules/.bin/node tests/helpers/push-service.selftest.ts
 * Not a vitest file on purpose: it checks the test helper itself, not the site.
 */
import assert from 'node:assert/strict';
import webpush from 'web-push';
import { startPushService, type PushMessage } from './push-service.ts';

const service = await startPushService();
const ok = (what: string) => console.log(`ok - ${what}`);
let held: Promise<string> | undefined;

const keys = webpush.generateVAPIDKeys();
const vapidDetails = { subject: 'mailto:test@example.com', publicKey: keys.publicKey, privateKey: keys.privateKey };
// web-push only speaks HTTPS; the service's agent lets it reach the plain-HTTP service.
const options = { vapidDetails, TTL: 60, agent: service.agent };

/** The status a push was refused with (WebPushError.statusCode), failing if it was not refused that way. */
async function refusal(sending: Promise<unknown>): Promise<InstanceType<typeof webpush.WebPushError>> {
  try {
    await sending;
  } catch (error) {
    assert.ok(error instanceof webpush.WebPushError, `expected a WebPushError, got ${String(error)}`);
    return error;
  }
  assert.fail('the push was accepted');
}

/** Sends what web-push would, but with fetch (which speaks plain HTTP), after `change` edits it. */
async function sendRaw(
  subscription: webpush.PushSubscription,
  payload: string,
  change: (details: { headers: Record<string, string>; body: Buffer }) => void = () => {},
): Promise<Response> {
  const details = webpush.generateRequestDetails(subscription, payload, { vapidDetails, TTL: 60 });
  const headers = Object.fromEntries(
    Object.entries(details.headers)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  const request = { headers, body: details.body };
  change(request);
  return fetch(details.endpoint, { method: details.method, headers: request.headers, body: new Uint8Array(request.body) });
}

try {
  // Delivery.
  const browser = service.subscribe();
  assert.match(browser.endpoint, new RegExp(`^${service.url}/push/[A-Za-z0-9_-]+$`));
  assert.equal(Buffer.from(browser.keys.p256dh, 'base64url').length, 65);
  assert.equal(Buffer.from(browser.keys.auth, 'base64url').length, 16);
  assert.notEqual(service.subscribe().endpoint, browser.endpoint);
  const sent = { title: 'New listing', body: '3 bed in Elm Street — €450,000', url: '/listings/42' };
  const result = await webpush.sendNotification(browser, JSON.stringify(sent), options);
  assert.equal(result.statusCode, 201);
  assert.match(String(result.headers.location), new RegExp(`^${service.url}/message/`));
  assert.equal(service.received.length, 1);
  const message = service.received[0]!;
  assert.deepEqual(JSON.parse(message.payload), sent);
  assert.deepEqual(
    [message.endpoint, message.ttl, message.urgency, message.topic, message.vapidSubject, message.vapidAudience, message.vapidPublicKey],
    [browser.endpoint, 60, 'normal', undefined, 'mailto:test@example.com', service.url, keys.publicKey],
  );
  ok('web-push sendNotification: 201 with Location; payload decrypts; TTL, Urgency, VAPID sub/aud recorded');

  await webpush.sendNotification(browser, 'second', { ...options, TTL: 0, urgency: 'high', topic: 'listing-42' });
  const second = await service.waitFor((m) => m.payload === 'second');
  assert.deepEqual([second.ttl, second.urgency, second.topic], [0, 'high', 'listing-42']);
  await webpush.sendNotification(browser, null, options);
  assert.equal(service.received.at(-1)!.payload, '');
  const big = 'x'.repeat(3993); // the most that fits in 4096 bytes once encrypted
  await webpush.sendNotification(browser, big, options);
  assert.equal(service.received.at(-1)!.payload, big);
  assert.equal((await refusal(webpush.sendNotification(browser, `${big}x`, options))).statusCode, 413);
  ok('urgency and topic recorded; a push without payload; 4096-byte bodies accepted, larger ones 413');

  const later = service.waitFor((m) => m.payload === 'later');
  setTimeout(() => void webpush.sendNotification(browser, 'later', options), 50);
  assert.equal((await later).endpoint, browser.endpoint);
  await assert.rejects(
    service.waitFor((m: PushMessage) => m.payload === 'never', 100),
    /No matching push message within 100 ms/,
  );
  ok('waitFor resolves when the message arrives and rejects after its timeout');

  // VAPID.
  const received = service.received.length;
  const other = webpush.generateVAPIDKeys();
  const wrongSignature = { ...options, vapidDetails: { ...vapidDetails, privateKey: other.privateKey } };
  const wrong = await refusal(webpush.sendNotification(browser, 'forged', wrongSignature));
  assert.equal(wrong.statusCode, 401);
  assert.match(wrong.body, /signature/);
  assert.equal((await sendRaw(browser, 'x', (r) => delete r.headers.Authorization)).status, 401);
  const tampered = await sendRaw(browser, 'x', (r) => {
    r.headers.Authorization = r.headers.Authorization!.replace(/t=([^.]+)\.([^.]+)\./, (_all, head: string, claims: string) => {
      const changed = { ...JSON.parse(Buffer.from(claims, 'base64url').toString()), sub: 'mailto:someone@else.example' };
      return `t=${head}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.`;
    });
  });
  assert.equal(tampered.status, 401);
  const audience = 'https://push.example.net';
  const foreign = await sendRaw(browser, 'x', (r) => {
    r.headers.Authorization = webpush.getVapidHeaders(
      audience,
      vapidDetails.subject,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
    ).Authorization;
  });
  assert.equal(foreign.status, 401);
  const expired = await sendRaw(browser, 'x', (r) => {
    const past = Math.floor(Date.now() / 1000) - 60;
    r.headers.Authorization = webpush.getVapidHeaders(
      service.url,
      vapidDetails.subject,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
      past,
    ).Authorization;
  });
  assert.equal(expired.status, 401);
  const restricted = service.subscribe({ applicationServerKey: other.publicKey });
  assert.equal((await refusal(webpush.sendNotification(restricted, 'x', options))).statusCode, 403);
  await webpush.sendNotification(restricted, 'right key', { ...options, vapidDetails: { ...vapidDetails, ...other } });
  assert.equal(service.received.length, received + 1);
  ok('VAPID: wrong signature, missing header, altered claims, other aud, expired token 401; other key on a restricted subscription 403');

  // Encryption.
  const stranger = service.subscribe();
  const misaddressed = await refusal(webpush.sendNotification({ ...stranger, endpoint: browser.endpoint }, 'x', options));
  assert.deepEqual([misaddressed.statusCode, /authentication failed/.test(misaddressed.body)], [400, true]);
  const flipped = await sendRaw(browser, 'x', (r) => {
    const body = Buffer.from(r.body);
    body[90]! ^= 1; // a ciphertext byte, after the 86-byte header
    r.body = body;
  });
  assert.deepEqual([flipped.status, /authentication failed/.test(await flipped.text())], [400, true]);
  assert.equal((await sendRaw(browser, 'x', (r) => (r.headers['Content-Encoding'] = 'aesgcm'))).status, 400);
  assert.equal((await sendRaw(browser, 'x', (r) => delete r.headers.TTL)).status, 400);
  assert.equal((await sendRaw(browser, 'fetched')).status, 201);
  assert.equal(service.received.at(-1)!.payload, 'fetched');
  ok('payload for other keys, altered ciphertext, other Content-Encoding, missing TTL 400; plain fetch of generateRequestDetails delivers');

  // Endpoint states.
  const count = service.received.length;
  service.gone(browser.endpoint);
  const gone = await refusal(webpush.sendNotification(browser, 'x', options));
  assert.ok(gone instanceof webpush.WebPushError);
  assert.deepEqual([gone.statusCode, gone.endpoint], [410, browser.endpoint]);
  service.notFound(browser.endpoint);
  assert.equal((await refusal(webpush.sendNotification(browser, 'x', options))).statusCode, 404);
  service.fail(browser.endpoint, 429, { 'retry-after': '30' });
  const limited = await refusal(webpush.sendNotification(browser, 'x', options));
  assert.deepEqual([limited.statusCode, limited.headers['retry-after']], [429, '30']);
  service.fail(browser.endpoint, 500);
  assert.equal((await refusal(webpush.sendNotification(browser, 'x', options))).statusCode, 500);
  service.restore(browser.endpoint);
  assert.equal((await webpush.sendNotification(browser, 'back', options)).statusCode, 201);
  assert.equal(service.received.length, count + 1);
  assert.deepEqual(
    service.attempts.slice(-5).map((a) => a.status),
    [410, 404, 429, 500, 201],
  );
  const unknown = { ...browser, endpoint: `${service.url}/push/never-subscribed` };
  assert.equal((await refusal(webpush.sendNotification(unknown, 'x', options))).statusCode, 404);
  assert.throws(() => service.gone('https://fcm.googleapis.com/fcm/send/abc'), /not an endpoint of the push service/);
  ok('gone 410 (WebPushError), notFound 404, fail 429 with Retry-After and 500, restore; unknown endpoint 404');

  service.hang(browser.endpoint);
  const started = Date.now();
  await assert.rejects(webpush.sendNotification(browser, 'x', { ...options, timeout: 300 }), /Socket timeout/);
  assert.ok(Date.now() - started >= 250, 'the timeout fired, not an early answer');
  assert.equal(service.attempts.at(-1)!.status, null);
  ok('hang: the request is never answered, the sender times out');

  // Left hanging with no timeout: close() must end it rather than wait for it.
  const attempts = service.attempts.length;
  held = webpush.sendNotification(browser, 'held', options).then(
    () => 'answered',
    (error: Error) => error.message,
  );
  while (service.attempts.length === attempts) await new Promise((resolve) => setTimeout(resolve, 10));
} finally {
  await service.close();
}
assert.ok(held);
assert.match(await held, /socket hang up|ECONNRESET/);
ok('close() ends requests held by hang()');
console.log('all checks passed');
