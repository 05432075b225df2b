import fs from 'node:fs';
import path from 'node:path';
import { createECDH } from 'node:crypto';
import type webpush from 'web-push';

// Web push (RFC 8030) to the browsers' own push services, with the payload encrypted for the device
// (RFC 8291) and the site named by its VAPID keys (RFC 8292). Only the push services the site knows
// are ever called: a subscription naming any other address is refused, so a member cannot make the
// server send requests where they like.

export interface PushSettings {
  publicKey: string;
  privateKey: string;
  /** How the push services can reach the site's owner (mailto: or https:). */
  subject: string;
  /** The origins pushes may go to (`https://*.host` for a whole domain). */
  serviceOrigins: string[];
  /** The longest a push may take, connect and answer. */
  timeoutMs: number;
}

/** Whether an endpoint is at one of the allowed push services. */
export function pushEndpointAllowed(endpoint: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  return origins.some((origin) => {
    const wildcard = origin.includes('//*.');
    const allowed = new URL(origin.replace('//*.', '//'));
    if (url.protocol !== allowed.protocol || url.port !== allowed.port) return false;
    return wildcard ? url.hostname.endsWith(`.${allowed.hostname}`) : url.hostname === allowed.hostname;
  });
}

/**
 * The site's VAPID keys: from the configuration; else, on the embedded database (one process), a
 * pair made once and kept in DATA_DIR; else none (push is off until the keys are set).
 */
export function vapidKeys(
  configured: { publicKey: string; privateKey: string } | undefined,
  embedded: { dataDir: string } | undefined,
): { publicKey: string; privateKey: string } | undefined {
  if (configured) return configured;
  if (!embedded) return undefined;
  const file = path.join(embedded.dataDir, 'vapid-keys.json');
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string')
      return { publicKey: kept.publicKey, privateKey: kept.privateKey };
  } catch {
    // None kept yet: made below.
  }
  const made = newVapidKeys();
  fs.mkdirSync(embedded.dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(made), { mode: 0o600 });
  return made;
}

/**
 * A P-256 key pair as web-push's `generateVAPIDKeys` makes it (base64url, the private key 32 bytes),
 * with node:crypto: the web-push library (some 150 modules) is loaded with the first push, not at start.
 */
function newVapidKeys(): { publicKey: string; privateKey: string } {
  const curve = createECDH('prime256v1');
  curve.generateKeys();
  const privateKey = curve.getPrivateKey();
  const padded = Buffer.concat([Buffer.alloc(Math.max(0, 32 - privateKey.length)), privateKey]);
  return { publicKey: curve.getPublicKey().toString('base64url'), privateKey: padded.toString('base64url') };
}

/** What became of one push: delivered, the device gone for good, or worth another try later. */
export type PushOutcome = 'delivered' | 'gone' | 'refused' | 'later';

/** Sends one push; never throws (a failure is an outcome). */
export async function sendPush(
  settings: PushSettings,
  device: { endpoint: string; p256dh: string; auth: string },
  payload: object,
  ttlSeconds: number,
): Promise<{ outcome: PushOutcome; status: number | null }> {
  if (!pushEndpointAllowed(device.endpoint, settings.serviceOrigins)) return { outcome: 'gone', status: null };
  const { default: pushLibrary } = await import('web-push');
  let request: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    request = pushLibrary.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: settings.subject, publicKey: settings.publicKey, privateKey: settings.privateKey },
        TTL: ttlSeconds,
        contentEncoding: 'aes128gcm',
      },
    );
  } catch {
    // Keys a browser could not have made: the device can never be reached.
    return { outcome: 'gone', status: null };
  }
  try {
    const answer = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : undefined,
      signal: AbortSignal.timeout(settings.timeoutMs),
      redirect: 'error',
    });
    await answer.arrayBuffer().catch(() => undefined);
    if (answer.status >= 200 && answer.status < 300) return { outcome: 'delivered', status: answer.status };
    // The browser unsubscribed, or the subscription expired: it will never take a push again.
    if (answer.status === 404 || answer.status === 410) return { outcome: 'gone', status: answer.status };
    if (answer.status === 429 || answer.status >= 500) return { outcome: 'later', status: answer.status };
    return { outcome: 'refused', status: answer.status };
  } catch {
    // Unreachable or silent past the timeout: the push service is away for now.
    return { outcome: 'later', status: null };
  }
}
