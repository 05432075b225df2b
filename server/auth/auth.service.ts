import type { AuthService } from '../../common/auth.contract.ts';
import { MEMBER_AUTH_LIMITS, SIGNUP_LIMIT, STAFF_LOGIN_LIMITS } from '../../common/limits.ts';
import { notFound } from '../../common/errors.ts';
import { requireMember } from '../../common/policies.ts';
import { refuseTakenAddress } from '../accounts/taken-address.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import { deviceName } from '../sessions/device-name.ts';
import { createSecondFactor } from '../staff/second-factor.ts';
import { queueEmailVerification } from '../accounts/email-verification.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import { hashPassword } from '../sessions/passwords.ts';
import type { SessionService } from '../sessions/session.service.ts';
import { createPasswordSignIn } from './password-sign-in.ts';

export function createAuthService(deps: {
  data: DataAccess;
  sessions: SessionService;
  limiter: AttemptLimiter;
  mailer: Mailer;
}): AuthService {
  const { data, sessions, limiter, mailer } = deps;
  const { members } = data;
  const memberSignIn = createPasswordSignIn({
    kind: 'member',
    findCredentials: (email) => members.findCredentials(email),
    sessions,
    limiter,
    limits: MEMBER_AUTH_LIMITS,
  });
  const staffSignIn = createPasswordSignIn({
    kind: 'staff',
    findCredentials: (email: string) => data.staff.findCredentials(email),
    // Wrong codes also count per account from every address, towards a lock (second-factor.ts).
    secondFactor: createSecondFactor({ data, mailer }).atSignIn(),
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
        // The account and its welcome message (with the link that confirms the address) together.
        member = await data.transaction(async (tx) => {
          const created = await tx.members.create({ name: input.name, email: input.email, passwordHash });
          await queueEmailVerification(tx, mailer, { id: created.id, name: input.name, email: input.email }, 'welcome');
          return created;
        });
      } catch (error) {
        if (data.isDuplicate(error)) await refuseTakenAddress(limiter, viewer);
        throw error;
      }
      mailer.nudge();
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

    async devices(viewer) {
      const member = requireMember(viewer);
      const rows = await sessions.devicesOf(member.id);
      return rows.map((row) => ({
        id: row.id,
        device: deviceName(row.userAgent),
        address: row.ipAddress ?? '',
        signed_in_at: row.createdAt.toISOString(),
        last_used_at: row.lastSeenAt.toISOString(),
        current: row.id === member.sessionId,
      }));
    },

    async signOutDevice(viewer, sessionId) {
      const member = requireMember(viewer);
      if (!(await sessions.revokeMemberSession(member.id, sessionId))) throw notFound('That device is not signed in.');
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
        email_verified: member.emailVerifiedAt !== null,
      };
    },

    staffSignIn: (viewer, input) => staffSignIn(viewer, input),

    async staffSignOut(viewer) {
      if (viewer.staff) await sessions.revoke(viewer.staff.sessionId);
    },
  };
}
