import { createHash, randomBytes } from 'node:crypto';

/** 256 bits of randomness, URL-safe. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256, so a leaked table opens no session. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
