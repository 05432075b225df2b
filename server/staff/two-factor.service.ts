import { createHash, randomBytes } from 'node:crypto';
import { BRAND_NAME } from '../../common/brand.ts';
import { conflict, forbidden } from '../../common/errors.ts';
import { requireStaffArea, requireStaffSignIn } from '../../common/policies.ts';
import { TWO_FACTOR_OWN_FIRST, TWO_FACTOR_REQUIRED_FOR_STAFF, type TwoFactorService } from '../../common/two-factor.contract.ts';
import { badRequest } from '../../common/errors.ts';
import { TWO_FACTOR_CODE_WRONG } from '../../common/auth.contract.ts';
import { matchingTotpStep, newTotpSecret, totpUri } from '../auth/totp.ts';
import type { DataAccess } from '../repositories.ts';
import { RECOVERY_CODES } from '../../common/limits.ts';

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

const hashCode = (code: string) => createHash('sha256').update(code.toLowerCase()).digest('hex');

/** A recovery code, `abcde-fghij`: 50 random bits, easy to read out and type. */
function newRecoveryCode(): string {
  const letters = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/**
 * Checks a staff member's second factor at sign-in: the code of the app's current step (each step's
 * code works once), or a recovery code (used up).
 */
export function checkSecondFactor(data: Pick<DataAccess, 'staff'>) {
  return async (account: { id: string; totpSecret: string | null; totpEnabledAt: Date | null }, code: string | undefined) => {
    if (!account.totpEnabledAt || !account.totpSecret) return 'ok' as const;
    if (!code) return 'missing' as const;
    if (/^\d{6}$/.test(code)) {
      const step = matchingTotpStep(account.totpSecret, code);
      return step !== null && (await data.staff.useTotpStep(account.id, step)) ? ('ok' as const) : ('wrong' as const);
    }
    return (await data.staff.useRecoveryCode(account.id, hashCode(code))) ? ('ok' as const) : ('wrong' as const);
  };
}

/** Each staff member's own two-factor sign-in, and the owners' choice to require it (both audited). */
export function createTwoFactorService(data: DataAccess): TwoFactorService {
  const required = () => data.siteSettings.staffTwoFactorRequired();

  /** The code proves the app (or a recovery code) is at hand. */
  async function proven(staffId: string, secret: string, code: string): Promise<number | 'recovery'> {
    if (/^\d{6}$/.test(code)) {
      const step = matchingTotpStep(secret, code);
      if (step !== null && (await data.staff.useTotpStep(staffId, step))) return step;
    } else if (await data.staff.useRecoveryCode(staffId, hashCode(code))) return 'recovery';
    throw badRequest(TWO_FACTOR_CODE_WRONG, 'code');
  }

  return {
    async status(viewer) {
      const staff = requireStaffSignIn(viewer);
      const state = await data.staff.twoFactorOf(staff.id);
      return { enabled: state?.enabledAt != null, required: await required(), recovery_codes_left: state?.recoveryCodesLeft ?? 0 };
    },

    async begin(viewer) {
      const staff = requireStaffSignIn(viewer);
      if ((await data.staff.twoFactorOf(staff.id))?.enabledAt) throw conflict('Two-factor sign-in is on already.');
      const secret = newTotpSecret();
      await data.staff.setPendingTotpSecret(staff.id, secret);
      return { secret, uri: totpUri(BRAND_NAME, staff.email, secret) };
    },

    async enable(viewer, code) {
      const staff = requireStaffSignIn(viewer);
      const state = await data.staff.twoFactorOf(staff.id);
      if (!state?.secret || state.enabledAt) throw conflict('Start the setup again: there is no code to check yet.');
      const step = matchingTotpStep(state.secret, code);
      if (step === null) throw badRequest(TWO_FACTOR_CODE_WRONG, 'code');
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      await data.transaction(async (tx) => {
        await tx.staff.enableTotp(staff.id, step, codes.map(hashCode));
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

    async disable(viewer, code) {
      const staff = requireStaffSignIn(viewer);
      if (await required()) throw forbidden(TWO_FACTOR_REQUIRED_FOR_STAFF);
      const state = await data.staff.twoFactorOf(staff.id);
      if (!state?.enabledAt || !state.secret) return;
      await proven(staff.id, state.secret, code);
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
