import { EMAIL_TAKEN, type AuthService } from '../../common/auth.contract.ts';
import { conflict } from '../../common/errors.ts';
import { MEMBER_AUTH_LIMITS, SIGNUP_LIMIT, STAFF_LOGIN_LIMITS } from '../../common/limits.ts';
import { requireMember } from '../../common/viewer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import { isUniqueViolation, type MembersRepository } from '../members/members.repository.ts';
import { hashPassword } from '../sessions/passwords.ts';
import type { SessionService } from '../sessions/session.service.ts';
import type { StaffRepository } from '../staff/staff.repository.ts';
import { createPasswordSignIn } from './password-sign-in.ts';

export function createAuthService(deps: {
  members: MembersRepository;
  staff: StaffRepository;
  sessions: SessionService;
  limiter: AttemptLimiter;
}): AuthService {
  const { members, sessions, limiter } = deps;
  const memberSignIn = createPasswordSignIn({
    kind: 'member',
    findCredentials: (email) => members.findCredentials(email),
    sessions,
    limiter,
    limits: MEMBER_AUTH_LIMITS,
  });
  const staffSignIn = createPasswordSignIn({
    kind: 'staff',
    findCredentials: (email) => deps.staff.findCredentials(email),
    sessions,
    limiter,
    limits: STAFF_LOGIN_LIMITS,
  });

  return {
    async register(viewer, input) {
      // Every sign-up counts: creating accounts in bulk is the abuse here.
      await limiter.check('register:address', viewer.client.address, SIGNUP_LIMIT);
      const passwordHash = await hashPassword(input.password);
      let member: { id: string };
      try {
        member = await members.create({ name: input.name, email: input.email, passwordHash });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
      return sessions.create(
        { kind: 'member', memberId: member.id },
        { userAgent: viewer.client.userAgent, ipAddress: viewer.client.address },
      );
    },

    async signIn(viewer, input) {
      const { token, expiresAt } = await memberSignIn(viewer, input);
      return { token, expiresAt };
    },

    async signOut(viewer) {
      if (viewer.member) await sessions.revoke(viewer.member.sessionId);
    },

    async revokeOtherSessions(viewer) {
      const member = requireMember(viewer);
      return sessions.revokeOtherMemberSessions(member.id, member.sessionId);
    },

    me(viewer) {
      const member = requireMember(viewer);
      return {
        id: member.id,
        name: member.name,
        email: member.email,
        membership_tier: member.membershipTier,
        created_at: member.createdAt.toISOString(),
      };
    },

    staffSignIn: (viewer, input) => staffSignIn(viewer, input),

    async staffSignOut(viewer) {
      if (viewer.staff) await sessions.revoke(viewer.staff.sessionId);
    },
  };
}
