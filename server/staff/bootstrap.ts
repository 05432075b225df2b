import type { Database } from '../../db/client.ts';
import { createAccountTokensRepository } from '../accounts/account-tokens.repository.ts';
import { hashPassword } from '../sessions/passwords.ts';
import { generateSessionToken, hashSessionToken } from '../sessions/tokens.ts';
import { createStaffRepository } from './staff.repository.ts';
import { LINK_VALID_MS } from '../../common/limits.ts';

const DEFAULT_ADMIN_EMAIL = 'admin@realtypocket.local';

/**
 * Creates the first staff account when none exists. With ADMIN_EMAIL/ADMIN_PASSWORD it signs in with
 * those; without them nobody knows its password: a link valid for 24 hours, single use, lets the
 * owner choose one. The link's path is returned once for the start to print; a password never is (logs are
 * shipped and kept, and a password in them stays good).
 */
export async function ensureFirstStaffAccount(
  db: Database,
  configured: { email: string; password: string } | undefined,
): Promise<{ email: string; setupPath?: string } | null> {
  const staff = createStaffRepository(db);
  if (await staff.any()) return null;
  if (configured) {
    await staff.create({ email: configured.email.toLowerCase(), passwordHash: await hashPassword(configured.password) });
    return { email: configured.email };
  }
  const unknownPassword = await hashPassword(generateSessionToken());
  const token = generateSessionToken();
  await db.transaction(async (tx) => {
    const id = await createStaffRepository(tx).createWithRole({ email: DEFAULT_ADMIN_EMAIL, passwordHash: unknownPassword, role: 'owner' });
    await createAccountTokensRepository(tx).create({
      purpose: 'password_reset',
      owner: { staffId: id },
      tokenHash: hashSessionToken(token),
      expiresAt: new Date(Date.now() + LINK_VALID_MS.staffSetup),
    });
  });
  // A path: the start prints it on the site's origin once that is known (it listens).
  return { email: DEFAULT_ADMIN_EMAIL, setupPath: `/admin/reset-password?${new URLSearchParams({ token })}` };
}
