import { WRONG_PASSWORD } from '../../common/account.contract.ts';
import { badRequest, unauthorized } from '../../common/errors.ts';
import { STAFF_CURRENT_PASSWORD_LIMITS } from '../../common/limits.ts';
import type { SignedInStaff, Viewer } from '../../common/viewer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { DataAccess } from '../repositories.ts';
import { verifyPassword } from '../sessions/passwords.ts';

/**
 * A staff member's password asked again before a sensitive change (two-factor sign-in on or off, new
 * recovery codes, their email, their password), so a stolen session alone cannot make it. Wrong ones
 * are limited like sign-in: per account (a session is one account, wherever it is used) and per client
 * address, with the growing wait; a limited try is refused before any hash is computed.
 */
export function staffPasswordCheck(deps: { data: Pick<DataAccess, 'staff'>; limiter: AttemptLimiter }) {
  const { data, limiter } = deps;
  const { perAccount, perAddress } = STAFF_CURRENT_PASSWORD_LIMITS;
  return async function requirePassword(viewer: Viewer, staff: SignedInStaff, password: string, field = 'password') {
    await limiter.ensureNotBlocked('staff-current-password:account', staff.id, perAccount);
    await limiter.ensureNotBlocked('staff-current-password:address', viewer.client.address, perAddress);
    const account = await data.staff.findCredentialsById(staff.id);
    // The account went while the session was kept (removed by an owner): nothing to change.
    if (!account) throw unauthorized('Please sign in as an administrator.');
    if (!(await verifyPassword(account.passwordHash, password))) {
      await limiter.recordFailure('staff-current-password:account', staff.id, perAccount);
      await limiter.recordFailure('staff-current-password:address', viewer.client.address, perAddress);
      throw badRequest(WRONG_PASSWORD, field);
    }
    return account;
  };
}
