import {
  RESET_LINK_INVALID,
  RESET_REQUESTED,
  VERIFY_LINK_INVALID,
  WRONG_PASSWORD,
  type AccountService,
} from '../../common/account.contract.ts';
import { EMAIL_TAKEN } from '../../common/auth.contract.ts';
import type { InvoiceView } from '../../common/billing.contract.ts';
import { badRequest, conflict } from '../../common/errors.ts';
import {
  CURRENT_PASSWORD_LIMITS,
  DATA_EXPORT_LIMIT,
  LINK_VALID_MS,
  RESEND_VERIFICATION_LIMIT,
  RESET_CONFIRM_LIMITS,
  RESET_REQUEST_LIMITS,
} from '../../common/limits.ts';
import { type Viewer } from '../../common/viewer.ts';
import { requireMember } from '../../common/policies.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { queueEmailVerification } from './email-verification.ts';
import { createMemberExport } from './member-export.ts';
import { refuseTakenAddress } from './taken-address.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { hashPassword, verifyPassword } from '../sessions/passwords.ts';
import type { SessionService } from '../sessions/session.service.ts';
import { hashSessionToken } from '../sessions/tokens.ts';
import { removeTeamsOf } from '../teams/team-end.ts';

/** A reset's row until the mail worker writes the message, at sending. */
const RESET_PENDING = { subject: 'Password reset (written when sent)', html: '', text: '' };

export function createAccountService(deps: {
  data: DataAccess;
  sessions: SessionService;
  limiter: AttemptLimiter;
  mailer: Mailer;
  /** Ends a member's subscriptions before their account goes, so they are never charged again; their invoices, for the export. */
  billing: {
    enabled: boolean;
    endSubscriptionsOf(memberId: string): Promise<void>;
    emailChanged(memberId: string, email: string): Promise<void>;
    invoices(viewer: Viewer): Promise<InvoiceView[]>;
  };
}): AccountService {
  const { data, sessions, limiter, mailer } = deps;
  const exportOf = createMemberExport({ data, invoices: (viewer) => deps.billing.invoices(viewer), billingOn: deps.billing.enabled });

  async function limitResetRequests(viewer: Viewer, scope: string, email: string) {
    await limiter.check(`${scope}:address`, viewer.client.address, RESET_REQUEST_LIMITS.perAddress);
    await limiter.check(`${scope}:email`, email, RESET_REQUEST_LIMITS.perEmail);
  }

  /** The member's account if this is their password: limited like sign-in, per member and per client address. */
  async function requireCurrentPassword(viewer: Viewer, memberId: string, password: string) {
    const { perMember, perAddress } = CURRENT_PASSWORD_LIMITS;
    await limiter.ensureNotBlocked('current-password:member', memberId, perMember);
    await limiter.ensureNotBlocked('current-password:address', viewer.client.address, perAddress);
    const account = await data.members.findAccount({ id: memberId });
    if (!account || !(await verifyPassword(account.passwordHash, password))) {
      await limiter.recordFailure('current-password:member', memberId, perMember);
      await limiter.recordFailure('current-password:address', viewer.client.address, perAddress);
      throw badRequest(WRONG_PASSWORD, 'current_password');
    }
    return account;
  }

  /** Counts a try of an emailed link (per client address and per link) before it is looked up; returns its hash. */
  async function limitedLinkTry(viewer: Viewer, scope: string, token: string): Promise<string> {
    const tokenHash = hashSessionToken(token);
    await limiter.check(`${scope}:address`, viewer.client.address, RESET_CONFIRM_LIMITS.perAddress);
    await limiter.check(`${scope}:link`, tokenHash, RESET_CONFIRM_LIMITS.perLink);
    return tokenHash;
  }

  /**
   * A reset or invitation link, checked before anything costly: every try is limited per client
   * address and per link, and only a link that works gets its new password hashed (argon2 is slow on
   * purpose, so a loop of wrong links must never reach it).
   */
  async function usableResetLink(viewer: Viewer, token: string) {
    const tokenHash = await limitedLinkTry(viewer, 'reset-confirm', token);
    const link = await data.accountTokens.findUsable('password_reset', tokenHash);
    if (!link) throw badRequest(RESET_LINK_INVALID);
    return { link, tokenHash };
  }

  return {
    // Nothing here depends on whether the address has an account: the same row is queued either
    // way and the mail worker writes the message for whoever has it (reset-mail.ts), so neither
    // the answer nor its timing tells who is a member.
    async requestPasswordReset(viewer, email) {
      await limitResetRequests(viewer, 'password-reset', email);
      await mailer.queue(data, 'password-reset', email, RESET_PENDING, { grant: { kind: 'password-reset', account: 'member' } });
      mailer.nudge();
      return { success: true as const, message: RESET_REQUESTED };
    },

    async resetPassword(viewer, input) {
      const { link, tokenHash } = await usableResetLink(viewer, input.token);
      if (!link.memberId) throw badRequest(RESET_LINK_INVALID);
      const passwordHash = await hashPassword(input.password);
      const account = await data.transaction(async (tx) => {
        // Used in one statement: two requests with one link change the password once.
        const used = await tx.accountTokens.consume('password_reset', tokenHash);
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
      await mailer.queue(data, 'staff-password-reset', email, RESET_PENDING, { grant: { kind: 'password-reset', account: 'staff' } });
      mailer.nudge();
      return { success: true as const, message: RESET_REQUESTED };
    },

    async resetStaffPassword(viewer, input) {
      const { link, tokenHash } = await usableResetLink(viewer, input.token);
      if (!link.staffId) throw badRequest(RESET_LINK_INVALID);
      const passwordHash = await hashPassword(input.password);
      const staffId = await data.transaction(async (tx) => {
        const used = await tx.accountTokens.consume('password_reset', tokenHash);
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

    async verifyEmail(viewer, token) {
      const tokenHash = await limitedLinkTry(viewer, 'verify-confirm', token);
      await data.transaction(async (tx) => {
        const used = await tx.accountTokens.consume('email_verification', tokenHash);
        if (!used?.memberId) throw badRequest(VERIFY_LINK_INVALID);
        await tx.members.update(used.memberId, { emailVerifiedAt: new Date() });
      });
    },

    async resendVerification(viewer) {
      const member = requireMember(viewer);
      if (member.emailVerifiedAt) return { success: true as const, message: 'Your email address is already confirmed.' };
      await limiter.check('verify-resend:member', member.id, RESEND_VERIFICATION_LIMIT);
      await data.transaction((tx) => queueEmailVerification(tx, mailer, member, 'verify-email'));
      mailer.nudge();
      return { success: true as const, message: `We sent a new confirmation link to ${member.email}.` };
    },

    async changeName(viewer, name) {
      const member = requireMember(viewer);
      await data.members.update(member.id, { name });
    },

    async setTimeZone(viewer, zone) {
      const member = requireMember(viewer);
      await data.members.update(member.id, { timeZone: zone });
    },

    async emailChoices(viewer) {
      const account = await data.members.findAccount({ id: requireMember(viewer).id });
      return { weekly_tips: account?.weeklyTips ?? false, optional_email: account ? !account.emailOptOut : false };
    },

    async setWeeklyTips(viewer, on) {
      await data.tips.setWeeklyTips(requireMember(viewer).id, on);
    },

    async requestEmailChange(viewer, input) {
      const member = requireMember(viewer);
      const account = await requireCurrentPassword(viewer, member.id, input.password);
      if (input.email.toLowerCase() === account.email.toLowerCase()) throw badRequest('That is already your email address.', 'email');
      if (await data.members.findAccount({ email: input.email })) await refuseTakenAddress(limiter, viewer);
      await data.transaction(async (tx) => {
        await mailer.queue(
          tx,
          'email-change-confirm',
          input.email,
          await mailTemplates.emailChangeConfirm({
            name: account.name,
            newEmail: input.email,
            confirmUrl: mailer.tokenLink('/confirm-email'),
          }),
          {
            grant: {
              kind: 'account-token',
              purpose: 'email_change',
              memberId: member.id,
              newEmail: input.email,
              ttlMs: LINK_VALID_MS.emailChange,
            },
          },
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

    async confirmEmailChange(viewer, token) {
      const tokenHash = await limitedLinkTry(viewer, 'email-change-confirm', token);
      let changed: { memberId: string; email: string } | undefined;
      try {
        await data.transaction(async (tx) => {
          const used = await tx.accountTokens.consume('email_change', tokenHash);
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
        if (data.isDuplicate(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
      mailer.nudge();
      if (!changed) return;
      // Whoever holds a stolen session loses it as the owner takes the account back; the device confirming keeps its own.
      const keep = viewer.member?.id === changed.memberId ? viewer.member.sessionId : undefined;
      await sessions.revokeOtherMemberSessions(changed.memberId, keep);
      await deps.billing.emailChanged(changed.memberId, changed.email);
    },

    async changePassword(viewer, input) {
      const member = requireMember(viewer);
      const account = await requireCurrentPassword(viewer, member.id, input.current_password);
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
      const account = await requireCurrentPassword(viewer, member.id, password);
      await deps.billing.endSubscriptionsOf(member.id);
      await data.transaction(async (tx) => {
        // The goodbye message holds the address until it is sent; the account, what hangs on it and the
        // rest of the mail to that address go now.
        const goodbye = await mailer.queue(
          tx,
          'account-deleted',
          account.email,
          await mailTemplates.accountDeleted({ name: account.name }),
        );
        await tx.outbox.forgetRecipient(account.email, goodbye);
        // A broker's teams go with them: each agent keeps only their own tier (the team's subscription ended above).
        await removeTeamsOf(tx, member.id, account.email);
        await tx.members.delete(member.id);
        await tx.audit.forgetMember(account);
      });
      mailer.nudge();
    },

    // Counted before the first piece: past the limit the member reads a 429, not a broken download.
    async exportData(viewer) {
      await limiter.check('data-export:member', requireMember(viewer).id, DATA_EXPORT_LIMIT);
      return exportOf(viewer);
    },

    async unsubscribe(token) {
      if (!(await data.members.optOut(hashSessionToken(token)))) throw badRequest('This unsubscribe link is not valid.');
    },
  };
}
