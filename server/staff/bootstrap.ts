import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { hashPassword } from '../sessions/passwords.ts';
import { createStaffRepository } from './staff.repository.ts';

const DEFAULT_ADMIN_EMAIL = 'admin@realtypocket.local';

/**
 * Creates the first staff account when none exists. Without ADMIN_EMAIL/ADMIN_PASSWORD a random
 * password is generated; it is returned once so the caller can print it, and never stored in clear.
 */
export async function ensureFirstStaffAccount(
  db: Database,
  configured: { email: string; password: string } | undefined,
): Promise<{ email: string; generatedPassword?: string } | null> {
  const staff = createStaffRepository(db);
  if ((await staff.count()) > 0) return null;
  const email = configured?.email ?? DEFAULT_ADMIN_EMAIL;
  const generatedPassword = configured ? undefined : randomBytes(12).toString('base64url');
  const password = configured?.password ?? generatedPassword!;
  await staff.create({ email: email.toLowerCase(), passwordHash: await hashPassword(password) });
  return { email, generatedPassword };
}
