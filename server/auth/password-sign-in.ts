import { INVALID_CREDENTIALS, TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG, type StaffLoginInput } from '../../common/auth.contract.ts';
import { unauthorized } from '../../common/errors.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { AttemptLimit, AttemptLimiter } from '../http/attempt-limiter.ts';
import { verifyAgainstDecoy, verifyPassword } from '../sessions/passwords.ts';
import type { SessionService } from '../sessions/session.service.ts';
import type { SessionKind } from '../sessions/session-cookies.ts';

interface Credentials {
  id: string;
  email: string;
  passwordHash: string;
}

export interface SignInLimits {
  /** Every attempt from one client address, right or wrong. */
  perAddress: AttemptLimit;
  /** Failed attempts on one account from one client address. */
  perAccountAndAddress: AttemptLimit;
}

/**
 * Password sign-in for members and staff alike: limited per client address (every attempt) and per
 * account from that address (failures), so an attacker's guesses never stop the owner signing in
 * from elsewhere; the same answer and timing for an unknown email and a wrong password; a fresh
 * session at every success.
 */
export function createPasswordSignIn<C extends Credentials>(options: {
  kind: SessionKind;
  findCredentials(email: string): Promise<C | null>;
  /**
   * A second factor after the right password (staff with two-factor sign-in): 'missing' asks for it,
   * 'wrong' counts as a failed attempt, like a wrong password. It may refuse with its own 429 too
   * (staff: too many wrong codes from anywhere lock the account's codes).
   */
  secondFactor?: (account: NoInfer<C>, code: string | undefined) => Promise<'ok' | 'missing' | 'wrong'>;
  sessions: SessionService;
  limiter: AttemptLimiter;
  limits: SignInLimits;
}) {
  const { kind, limiter, limits } = options;
  return async function signIn(viewer: Viewer, input: StaffLoginInput) {
    const pair = `${input.email.toLowerCase()}|${viewer.client.address}`;
    await limiter.check(`${kind}-login:address`, viewer.client.address, limits.perAddress);
    await limiter.ensureNotBlocked(`${kind}-login:account-address`, pair, limits.perAccountAndAddress);
    const account = await options.findCredentials(input.email);
    const valid = account ? await verifyPassword(account.passwordHash, input.password) : await verifyAgainstDecoy(input.password);
    if (!account || !valid) {
      await limiter.recordFailure(`${kind}-login:account-address`, pair, limits.perAccountAndAddress);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    const second = options.secondFactor ? await options.secondFactor(account, input.code || undefined) : 'ok';
    if (second === 'missing') throw unauthorized(TWO_FACTOR_CODE_NEEDED);
    if (second === 'wrong') {
      await limiter.recordFailure(`${kind}-login:account-address`, pair, limits.perAccountAndAddress);
      throw unauthorized(TWO_FACTOR_CODE_WRONG);
    }
    const owner = kind === 'member' ? { kind, memberId: account.id } : { kind, staffId: account.id };
    const session = await options.sessions.create(owner, { userAgent: viewer.client.userAgent, ipAddress: viewer.client.address });
    return { token: session.token, expiresAt: session.expiresAt, email: account.email };
  };
}
