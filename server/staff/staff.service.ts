import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LAST_OWNER, STAFF_EXISTS, type StaffAccount, type StaffService } from '../../common/admin.contract.ts';
import { badRequest, conflict, forbidden, notFound } from '../../common/errors.ts';
import type { StaffRole } from '../../common/staff-roles.ts';
import { leavesNoOwner, requireStaff, requireStaffArea, requireStaffSignIn } from '../../common/policies.ts';
import { TWO_FACTOR_NOT_LOCKED } from '../../common/two-factor.contract.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailTemplates } from '../mail/templates.ts';
import type { DataAccess } from '../repositories.ts';
import { hashPassword } from '../sessions/passwords.ts';
import type { SessionService } from '../sessions/session.service.ts';
import { staffPasswordCheck } from './current-password.ts';
import { LINK_VALID_MS, PAGE_SIZE } from '../../common/limits.ts';
import { decodeCursor, pageOf, TimestampKey } from '../lists/keyset.ts';

const ROLE_NAME: Record<StaffRole, string> = { owner: 'an owner', editor: 'an editor' };

/** The staff accounts go on after an account: its creation time (PostgreSQL's text) and id. */
const StaffListCursor = z.tuple([TimestampKey, z.uuid()]);

export function createStaffService(deps: {
  storageName: string;
  data: DataAccess;
  mailer: Mailer;
  limiter: AttemptLimiter;
  sessions: Pick<SessionService, 'revokeStaffSessions'>;
}): StaffService {
  const { data, mailer, limiter } = deps;
  const requirePassword = staffPasswordCheck(deps);

  const shape = (
    row: { id: string; email: string; role: StaffRole; createdAt: Date; secondFactorLockedUntil: Date | null },
    viewerId: string,
  ): StaffAccount => ({
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    you: row.id === viewerId,
    two_factor_locked_until:
      row.secondFactorLockedUntil && row.secondFactorLockedUntil > new Date() ? row.secondFactorLockedUntil.toISOString() : null,
  });
  /** What the notices call a staff member: the name they host under, or nothing more than a greeting. */
  const nameOf = (account: { displayName: string }) => account.displayName || 'there';

  async function accountOf(staffId: string) {
    const account = await data.staff.findById(staffId);
    if (!account) throw notFound('Staff account not found');
    return account;
  }

  return {
    // Who the current staff session belongs to, their role, and where uploads go.
    session(viewer) {
      const staff = requireStaffSignIn(viewer);
      return {
        email: staff.email,
        storage_name: deps.storageName,
        role: staff.role,
        // The admin pages send a staff member who must set up two-factor sign-in to do that first.
        two_factor_setup_needed: staff.twoFactorRequired && !staff.twoFactorEnabled,
      };
    },

    async list(viewer, query = {}) {
      const owner = requireStaffArea(viewer, 'staff');
      const after = query.before ? decodeCursor(query.before, StaffListCursor) : undefined;
      const rows = await data.staff.page(PAGE_SIZE.staffList + 1, after && { createdAt: after[0], id: after[1] });
      return pageOf(
        rows,
        PAGE_SIZE.staffList,
        (row) => [row.cursor, row.id],
        (row) => shape(row, owner.id),
      );
    },

    async invite(viewer, invitation) {
      const owner = requireStaffArea(viewer, 'staff');
      if (await data.staff.findByEmail(invitation.email)) throw conflict(STAFF_EXISTS);
      // Nobody knows this password: the invited person chooses theirs through the link.
      const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
      try {
        await data.transaction(async (tx) => {
          const staffId = await tx.staff.createWithRole({ email: invitation.email, passwordHash, role: invitation.role });
          const setPasswordUrl = mailer.tokenLink('/admin/reset-password');
          await mailer.queue(
            tx,
            'staff-invitation',
            invitation.email,
            await mailTemplates.staffInvitation({ role: ROLE_NAME[invitation.role], inviter: owner.email, setPasswordUrl }),
            { grant: { kind: 'account-token', purpose: 'password_reset', staffId, ttlMs: LINK_VALID_MS.staffInvitation } },
          );
          await tx.audit.record({
            actorEmail: owner.email,
            action: 'staff.invite',
            target: invitation.email,
            oldValue: null,
            newValue: invitation.role,
          });
        });
      } catch (error) {
        if (data.isDuplicate(error)) throw conflict(STAFF_EXISTS);
        throw error;
      }
      mailer.nudge();
      const created = await data.staff.findByEmail(invitation.email);
      if (!created) throw notFound('Staff account not found');
      return shape(created, owner.id);
    },

    async setRole(viewer, staffId, role) {
      const owner = requireStaffArea(viewer, 'staff');
      const before = await accountOf(staffId);
      await data.transaction(async (tx) => {
        await tx.staff.lockAll();
        if (leavesNoOwner({ from: before.role, to: role }, await tx.staff.countWithRole('owner'))) throw conflict(LAST_OWNER);
        await tx.staff.setRole(staffId, role);
        await tx.audit.record({
          actorEmail: owner.email,
          action: 'staff.role',
          target: before.email,
          oldValue: before.role,
          newValue: role,
        });
      });
      return shape(await accountOf(staffId), owner.id);
    },

    // Its sessions and links go with the account (the database cascades), so it is signed out at once.
    async remove(viewer, staffId) {
      const owner = requireStaffArea(viewer, 'staff');
      if (staffId === owner.id) throw forbidden('You cannot remove your own account: ask another owner.');
      const before = await accountOf(staffId);
      await data.transaction(async (tx) => {
        await tx.staff.lockAll();
        if (leavesNoOwner({ from: before.role, to: null }, await tx.staff.countWithRole('owner'))) throw conflict(LAST_OWNER);
        await tx.staff.remove(staffId);
        await tx.audit.record({
          actorEmail: owner.email,
          action: 'staff.remove',
          target: before.email,
          oldValue: before.role,
          newValue: null,
        });
      });
    },

    async liftTwoFactorLock(viewer, staffId) {
      const owner = requireStaffArea(viewer, 'staff');
      // Else a stolen owner's session could lift its own lock and go on guessing codes.
      if (staffId === owner.id) throw forbidden('Another owner must lift the lock on your own account.');
      const before = await accountOf(staffId);
      const lifted = await data.transaction(async (tx) => {
        if (!(await tx.staff.liftSecondFactorLock(staffId, new Date()))) return false;
        await tx.audit.record({
          actorEmail: owner.email,
          action: 'staff.two-factor-unlock',
          target: before.email,
          oldValue: before.secondFactorLockedUntil?.toISOString() ?? null,
          newValue: null,
        });
        return true;
      });
      if (!lifted) throw conflict(TWO_FACTOR_NOT_LOCKED);
      return shape(await accountOf(staffId), owner.id);
    },

    async changeEmail(viewer, input) {
      const staff = requireStaff(viewer);
      const account = await requirePassword(viewer, staff, input.password);
      if (input.email.toLowerCase() === account.email.toLowerCase()) throw badRequest('That is already your email address.', 'email');
      if (await data.staff.findByEmail(input.email)) throw conflict(STAFF_EXISTS);
      try {
        await data.transaction(async (tx) => {
          await tx.staff.setEmail(staff.id, input.email);
          await tx.audit.record({
            actorEmail: account.email,
            action: 'staff.email',
            target: input.email,
            oldValue: account.email,
            newValue: input.email,
          });
          // The old address hears of it: whoever changed it without its owner is found out.
          await mailer.queue(
            tx,
            'staff-email-changed',
            account.email,
            await mailTemplates.emailChanged({ name: nameOf(account), newEmail: input.email }),
          );
        });
      } catch (error) {
        if (data.isDuplicate(error)) throw conflict(STAFF_EXISTS);
        throw error;
      }
      mailer.nudge();
      return { success: true as const, message: `Your email is now ${input.email}: sign in with it from now on.` };
    },

    async changePassword(viewer, input) {
      const staff = requireStaff(viewer);
      const account = await requirePassword(viewer, staff, input.current_password, 'current_password');
      const passwordHash = await hashPassword(input.new_password);
      await data.transaction(async (tx) => {
        await tx.staff.setPassword(staff.id, passwordHash);
        await tx.audit.record({
          actorEmail: account.email,
          action: 'staff.password',
          target: account.email,
          oldValue: null,
          newValue: null,
        });
        await mailer.queue(tx, 'staff-password-changed', account.email, await mailTemplates.passwordChanged({ name: nameOf(account) }));
      });
      mailer.nudge();
      // Whoever held a session of the account (a stolen one included) signs in again, with the new password.
      await deps.sessions.revokeStaffSessions(staff.id);
      await limiter.forget('staff-login:account-address', `${account.email}|`);
    },
  };
}
