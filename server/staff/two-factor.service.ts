import { randomBytes } from 'node:crypto';
import { BRAND_NAME } from '../../common/brand.ts';
import { badRequest, conflict, forbidden } from '../../common/errors.ts';
import { requireStaff, requireStaffArea, requireStaffSignIn } from '../../common/policies.ts';
import { TWO_FACTOR_OWN_FIRST, TWO_FACTOR_REQUIRED_FOR_STAFF, type TwoFactorService } from '../../common/two-factor.contract.ts';
import { TWO_FACTOR_CODE_WRONG } from '../../common/auth.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { newTotpSecret, totpUri } from '../auth/totp.ts';
import type { AttemptLimiter } from '../http/attempt-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import { RECOVERY_CODES } from '../../common/limits.ts';
import { staffPasswordCheck } from './current-password.ts';
import { createSecondFactor, hashRecoveryCode } from './second-factor.ts';

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A recovery code, `abcde-fghij`: 50 random bits, easy to read out and type. */
function newRecoveryCode(): string {
  const letters = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

const newRecoveryCodes = () => Array.from({ length: RECOVERY_CODES }, newRecoveryCode);

/**
 * Each staff member's own two-factor sign-in, and the owners' choice to require it (both audited).
 * Turning it on or off and making new recovery codes ask for the password again (a stolen session
 * alone must not enrol a thief's phone or take the factor away), then a code, whose wrong tries count
 * towards the account's lock (second-factor.ts).
 */
export function createTwoFactorService(deps: { data: DataAccess; limiter: AttemptLimiter; mailer: Mailer }): TwoFactorService {
  const { data } = deps;
  const required = () => data.siteSettings.staffTwoFactorRequired();
  const requirePassword = staffPasswordCheck(deps);
  const secondFactor = createSecondFactor(deps);

  /** The code proves the app (or a recovery code) is at hand: a wrong one is a 400, counted. */
  async function proven(account: { id: string; email: string; totpSecret: string }, code: string) {
    if ((await secondFactor.checkCode(account, code)) === null) throw badRequest(TWO_FACTOR_CODE_WRONG, 'code');
  }

  /** The viewer's account once their password is right, and the app's secret while two-factor sign-in is on. */
  async function withPassword(viewer: Viewer, password: string) {
    const staff = requireStaffSignIn(viewer);
    const account = await requirePassword(viewer, staff, password);
    const secret = account.totpEnabledAt ? account.totpSecret : null;
    return { staff, account: secret ? { ...account, totpSecret: secret } : null };
  }

  return {
    async status(viewer) {
      const staff = requireStaffSignIn(viewer);
      const state = await data.staff.twoFactorOf(staff.id);
      const lockedUntil = state?.lockedUntil && state.lockedUntil > new Date() ? state.lockedUntil.toISOString() : null;
      return {
        enabled: state?.enabledAt != null,
        required: await required(),
        recovery_codes_left: state?.recoveryCodesLeft ?? 0,
        locked_until: lockedUntil,
      };
    },

    async begin(viewer) {
      const staff = requireStaffSignIn(viewer);
      if ((await data.staff.twoFactorOf(staff.id))?.enabledAt) throw conflict('Two-factor sign-in is on already.');
      const secret = newTotpSecret();
      await data.staff.setPendingTotpSecret(staff.id, secret);
      return { secret, uri: totpUri(BRAND_NAME, staff.email, secret) };
    },

    async enable(viewer, input) {
      const staff = requireStaffSignIn(viewer);
      const state = await data.staff.twoFactorOf(staff.id);
      if (!state?.secret || state.enabledAt) throw conflict('Start the setup again: there is no code to check yet.');
      const account = await requirePassword(viewer, staff, input.password);
      const step = await secondFactor.checkFirstCode(account, state.secret, input.code);
      if (step === null) throw badRequest(TWO_FACTOR_CODE_WRONG, 'code');
      const codes = newRecoveryCodes();
      await data.transaction(async (tx) => {
        await tx.staff.enableTotp(staff.id, step, codes.map(hashRecoveryCode));
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'staff.two-factor',
          target: staff.email,
          oldValue: 'off',
          newValue: 'on',
        });
      });
      return { recovery_codes: codes };
    },

    async disable(viewer, input) {
      requireStaffSignIn(viewer);
      if (await required()) throw forbidden(TWO_FACTOR_REQUIRED_FOR_STAFF);
      const { staff, account } = await withPassword(viewer, input.password);
      if (!account) return;
      await proven(account, input.code);
      await data.transaction(async (tx) => {
        await tx.staff.disableTotp(staff.id);
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'staff.two-factor',
          target: staff.email,
          oldValue: 'on',
          newValue: 'off',
        });
      });
    },

    async newRecoveryCodes(viewer, input) {
      requireStaff(viewer);
      const { staff, account } = await withPassword(viewer, input.password);
      if (!account) throw conflict('Two-factor sign-in is off: there are no recovery codes to replace.');
      await proven(account, input.code);
      const codes = newRecoveryCodes();
      await data.transaction(async (tx) => {
        await tx.staff.replaceRecoveryCodes(staff.id, codes.map(hashRecoveryCode));
        await tx.audit.record({
          actorEmail: staff.email,
          action: 'staff.recovery-codes',
          target: staff.email,
          oldValue: null,
          newValue: null,
        });
      });
      return { recovery_codes: codes };
    },

    async setRequired(viewer, value) {
      const owner = requireStaffArea(viewer, 'staff');
      // An owner who requires it signs in with it: nobody locks everyone out, themselves included.
      if (value && !owner.twoFactorEnabled) throw conflict(TWO_FACTOR_OWN_FIRST);
      await data.transaction(async (tx) => {
        await tx.siteSettings.setStaffTwoFactorRequired(value, owner.email);
        await tx.audit.record({
          actorEmail: owner.email,
          action: 'staff.two-factor-required',
          target: 'every staff member',
          oldValue: !value,
          newValue: value,
        });
      });
    },
  };
}
