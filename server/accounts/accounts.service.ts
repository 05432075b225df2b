import {
  RESET_LINK_INVALID,
  RESET_REQUESTED,
  VERIFY_LINK_INVALID,
  WRONG_PASSWORD,
  type AccountService,
} from '../../common/account.contract.ts';
import { EMAIL_TAKEN } from '../../common/auth.contract.ts';
import { badRequest, conflict } from '../../common/errors.ts';
import { requireMember, type Viewer } from '../../common/viewer.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { queueEmailVerification } from './email-verification.ts';
import { mailTemplates } from '../mail/templates.ts';
import { isUniqueViolation } from '../members/members.repository.ts';
import type { DataAccess } from '../repositories.ts';
import { hashPassword, verifyPassword } from '../sessions/passwords.ts';
import type { SessionService } from '../sessions/session.service.ts';
import { generateSessionToken, hashSessionToken } from '../sessions/tokens.ts';

const HOUR = 60 * 60 * 1000;
const RESET_LINK_MS = HOUR;
const EMAIL_CHANGE_LINK_MS = 24 * HOUR;

// Reset and verification mail per client address and per account, so neither can be used to flood an inbox.
const RESET_LIMITS = { perAddress: { max: 10, windowMs: HOUR }, perEmail: { max: 3, windowMs: HOUR } };
const RESEND_LIMIT = { max: 3, windowMs: HOUR };

/** A random single-use link token (256 bits); only its SHA-256 is stored. */
function newToken() {
  const token = generateSessionToken();
  return { token, hash: hashSessionToken(token) };
}

export function createAccountService(deps: {
  data: DataAccess;
  sessions: SessionService;
  limiter: AttemptLimiter;
  mailer: Mailer;
  /** Ends a member's subscriptions before their account goes, so they are never charged again. */
  billing: { endSubscriptionsOf(memberId: string): Promise<void>; emailChanged(memberId: string, email: string): Promise<void> };
}): AccountService {
  const { data, sessions, limiter, mailer } = deps;

  async function limitResetRequests(viewer: Viewer, scope: string, email: string) {
    await limiter.check(`${scope}:address`, viewer.client.address, RESET_LIMITS.perAddress);
    await limiter.check(`${scope}:email`, email, RESET_LIMITS.perEmail);
  }

  async function requireCurrentPassword(memberId: string, password: string) {
    const account = await data.members.findAccount({ id: memberId });
    if (!account || !(await verifyPassword(account.passwordHash, password))) throw badRequest(WRONG_PASSWORD, 'current_password');
    return account;
  }

  return {
    async requestPasswordReset(viewer, email) {
      await limitResetRequests(viewer, 'password-reset', email);
      const account = await data.members.findAccount({ email });
      if (account) {
        const { token, hash } = newToken();
        await data.transaction(async (tx) => {
          await tx.accountTokens.revokeUnused('password_reset', { memberId: account.id });
          await tx.accountTokens.create({
            purpose: 'password_reset',
            owner: { memberId: account.id },
            tokenHash: hash,
            expiresAt: new Date(Date.now() + RESET_LINK_MS),
          });
          const resetUrl = mailer.link('/reset-password', { token });
          await mailer.queue(tx, 'password-reset', account.email, await mailTemplates.passwordReset({ name: account.name, resetUrl }));
        });
        mailer.nudge();
      }
      return { success: true as const, message: RESET_REQUESTED };
    },

    async resetPassword(_viewer, input) {
      const passwordHash = await hashPassword(input.password);
      const account = await data.transaction(async (tx) => {
        const used = await tx.accountTokens.consume('password_reset', hashSessionToken(input.token));
        if (!used?.memberId) throw badRequest(RESET_LINK_INVALID);
        const member = await tx.members.findAccount({ id: used.memberId });
        if (!member) throw badRequest(RESET_LINK_INVALID);
        await tx.members.update(member.id, { passwordHash });
        await mailer.queue(tx, 'password-changed', member.email, await mailTemplates.passwordChanged({ name: member.name }));
        return member;
      });
      // Whoever held the old password is out, and the owner is no longer locked out.
      await sessions.revokeOtherMemberSessions(account.id);
      await limiter.forget('member-login:account-address', `${account.email}|`);
      mailer.nudge();
    },

    async requestStaffPasswordReset(viewer, email) {
      await limitResetRequests(viewer, 'staff-password-reset', email);
      const staff = await data.staff.findByEmail(email);
      if (staff) {
        const { token, hash } = newToken();
        await data.transaction(async (tx) => {
          await tx.accountTokens.revokeUnused('password_reset', { staffId: staff.id });
          await tx.accountTokens.create({
            purpose: 'password_reset',
            owner: { staffId: staff.id },
            tokenHash: hash,
            expiresAt: new Date(Date.now() + RESET_LINK_MS),
          });
          const resetUrl = mailer.link('/admin/reset-password', { token });
          await mailer.queue(tx, 'staff-password-reset', staff.email, await mailTemplates.passwordReset({ name: staff.email, resetUrl }));
        });
        mailer.nudge();
      }
      return { success: true as const, message: RESET_REQUESTED };
    },

    async resetStaffPassword(_viewer, input) {
      const passwordHash = await hashPassword(input.password);
      const staffId = await data.transaction(async (tx) => {
        const used = await tx.accountTokens.consume('password_reset', hashSessionToken(input.token));
        if (!used?.staffId) throw badRequest(RESET_LINK_INVALID);
        await tx.staff.setPassword(used.staffId, passwordHash);
        await tx.audit.record({
          actorEmail: 'password reset link',
          action: 'staff.password-reset',
          target: used.staffId,
          oldValue: null,
          newValue: null,
        });
        return used.staffId;
      });
      await sessions.revokeStaffSessions(staffId);
      const staff = await data.staff.findById(staffId);
      if (staff) await limiter.forget('staff-login:account-address', `${staff.email}|`);
    },

    async verifyEmail(token) {
      await data.transaction(async (tx) => {
        const used = await tx.accountTokens.consume('email_verification', hashSessionToken(token));
        if (!used?.memberId) throw badRequest(VERIFY_LINK_INVALID);
        await tx.members.update(used.memberId, { emailVerifiedAt: new Date() });
      });
    },

    async resendVerification(viewer) {
      const member = requireMember(viewer);
      if (member.emailVerifiedAt) return { success: true as const, message: 'Your email address is already confirmed.' };
      await limiter.check('verify-resend:member', member.id, RESEND_LIMIT);
      await data.transaction((tx) => queueEmailVerification(tx, mailer, member, 'verify-email'));
      mailer.nudge();
      return { success: true as const, message: `We sent a new confirmation link to ${member.email}.` };
    },

    async changeName(viewer, name) {
      const member = requireMember(viewer);
      await data.members.update(member.id, { name });
    },

    async requestEmailChange(viewer, input) {
      const member = requireMember(viewer);
      const account = await requireCurrentPassword(member.id, input.password);
      if (input.email.toLowerCase() === account.email.toLowerCase()) throw badRequest('That is already your email address.', 'email');
      const taken = await data.members.findAccount({ email: input.email });
      if (taken) throw conflict(EMAIL_TAKEN);
      const { token, hash } = newToken();
      await data.transaction(async (tx) => {
        await tx.accountTokens.revokeUnused('email_change', { memberId: member.id });
        await tx.accountTokens.create({
          purpose: 'email_change',
          owner: { memberId: member.id },
          tokenHash: hash,
          newEmail: input.email,
          expiresAt: new Date(Date.now() + EMAIL_CHANGE_LINK_MS),
        });
        const confirmUrl = mailer.link('/confirm-email', { token });
        await mailer.queue(
          tx,
          'email-change-confirm',
          input.email,
          await mailTemplates.emailChangeConfirm({ name: account.name, newEmail: input.email, confirmUrl }),
        );
        await mailer.queue(
          tx,
          'email-change-notice',
          account.email,
          await mailTemplates.emailChangeNotice({ name: account.name, newEmail: input.email }),
        );
      });
      mailer.nudge();
      return { success: true as const, message: `We sent a confirmation link to ${input.email}. Your email changes once you open it.` };
    },

    async confirmEmailChange(token) {
      let changed: { memberId: string; email: string } | undefined;
      try {
        await data.transaction(async (tx) => {
          const used = await tx.accountTokens.consume('email_change', hashSessionToken(token));
          if (!used?.memberId || !used.newEmail) throw badRequest(VERIFY_LINK_INVALID);
          const member = await tx.members.findAccount({ id: used.memberId });
          if (!member) throw badRequest(VERIFY_LINK_INVALID);
          // Opening the link proves the new address is the member's.
          await tx.members.update(member.id, { email: used.newEmail, emailVerifiedAt: new Date() });
          await mailer.queue(
            tx,
            'email-changed',
            member.email,
            await mailTemplates.emailChanged({ name: member.name, newEmail: used.newEmail }),
          );
          changed = { memberId: member.id, email: used.newEmail };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
      mailer.nudge();
      if (changed) await deps.billing.emailChanged(changed.memberId, changed.email);
    },

    async changePassword(viewer, input) {
      const member = requireMember(viewer);
      const account = await requireCurrentPassword(member.id, input.current_password);
      const passwordHash = await hashPassword(input.new_password);
      await data.transaction(async (tx) => {
        await tx.members.update(member.id, { passwordHash });
        await mailer.queue(tx, 'password-changed', account.email, await mailTemplates.passwordChanged({ name: account.name }));
      });
      mailer.nudge();
      return sessions.revokeOtherMemberSessions(member.id, member.sessionId);
    },

    async deleteAccount(viewer, password) {
      const member = requireMember(viewer);
      const account = await requireCurrentPassword(member.id, password);
      await deps.billing.endSubscriptionsOf(member.id);
      await data.transaction(async (tx) => {
        // The goodbye message holds the address until it is sent; the account and what hangs on it go now.
        await mailer.queue(tx, 'account-deleted', account.email, await mailTemplates.accountDeleted({ name: account.name }));
        await tx.members.delete(member.id);
        await tx.audit.forgetTarget(account.email);
      });
      mailer.nudge();
    },

    async unsubscribe(token) {
      if (!(await data.members.optOut(token))) throw badRequest('This unsubscribe link is not valid.');
    },
  };
}
