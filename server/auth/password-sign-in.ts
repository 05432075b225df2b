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
  perAddress: AttemptLimit;
  perAccount: AttemptLimit;
}

/**
 * Password sign-in for members and staff alike: refused while the address or the account is
 * blocked; the same answer and timing for an unknown email and a wrong password; a fresh session
 * at every success; only failures count towards the limits.
 */
export function createPasswordSignIn(options: {
  kind: SessionKind;
  findCredentials(email: string): Promise<Credentials | null>;
  sessions: SessionService;
  limiter: AttemptLimiter;
  limits: SignInLimits;
}) {
  const { kind, limiter, limits } = options;
  const scopes = (viewer: Viewer, email: string) =>
    [
      [`${kind}-login:address`, viewer.client.address, limits.perAddress],
      [`${kind}-login:account`, email, limits.perAccount],
    ] as const;

  return async function signIn(viewer: Viewer, input: LoginInput) {
    for (const [scope, key, limit] of scopes(viewer, input.email)) await limiter.ensureNotBlocked(scope, key, limit);
    const account = await options.findCredentials(input.email);
    const valid = account ? await verifyPassword(account.passwordHash, input.password) : await verifyAgainstDecoy(input.password);
    if (!account || !valid) {
      for (const [scope, key, limit] of scopes(viewer, input.email)) await limiter.recordFailure(scope, key, limit);
      throw unauthorized(INVALID_CREDENTIALS);
    }
    const owner = kind === 'member' ? { kind, memberId: account.id } : { kind, staffId: account.id };
    const session = await options.sessions.create(owner, { userAgent: viewer.client.userAgent, ipAddress: viewer.client.address });
    return { token: session.token, expiresAt: session.expiresAt, email: account.email };
  };
}
