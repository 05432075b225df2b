import { INVALID_CREDENTIALS, type LoginInput } from '../../common/auth.contract.ts';
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
export function createPasswordSignIn(options: {
  kind: SessionKind;
  findCredentials(email: string): Promise<Credentials | null>;
  sessions: SessionService;
  limiter: AttemptLimiter;
  limits: SignInLimits;
}) {
  const { kind, limiter, limits } = options;
  return async function signIn(viewer: Viewer, input: LoginInput) {
    const pair = `${input.email.toLowerCase()}|${viewer.client.address}`;
    await limiter.check(`${kind}-login:address`, viewer.client.address, limits.perAddress);
    await limiter.ensureNotBlocked(`${kind}-login:account-address`, pair, limits.perAccountAndAddress);
    const account = await options.findCredentials(input.email);
    const valid = account ? await verifyPassword(account.passwordHash, input.password) : await verifyAgainstDecoy(input.password);
    if (!account || !valid) {
      await limiter.recordFailure(`${kind}-login:account-address`, pair, limits.perAccountAndAddress);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    const owner = kind === 'member' ? { kind, memberId: account.id } : { kind, staffId: account.id };
    const session = await options.sessions.create(owner, { userAgent: viewer.client.userAgent, ipAddress: viewer.client.address });
    return { token: session.token, expiresAt: session.expiresAt, email: account.email };
  };
}
