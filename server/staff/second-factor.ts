import { createHash } from 'node:crypto';
import { ServiceError } from '../../common/errors.ts';
import { SECOND_FACTOR_LOCK } from '../../common/limits.ts';
import { secondFactorLocked } from '../../common/two-factor.contract.ts';
import { matchingTotpStep } from '../auth/totp.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { DataAccess } from '../repositories.ts';
import { secondFactorLockedMail } from './second-factor-mail.ts';

/** Recovery codes are kept by their SHA-256 (50 random bits each: no need for a slow hash). */
export const hashRecoveryCode = (code: string) => createHash('sha256').update(code.toLowerCase()).digest('hex');

interface StaffSecrets {
  id: string;
  email: string;
  totpSecret: string | null;
}

const lockedError = (until: Date | null, now: Date) =>
  new ServiceError(429, secondFactorLocked((until?.getTime() ?? now.getTime() + SECOND_FACTOR_LOCK.windowMs) - now.getTime()));

/**
 * Every check of a staff member's two-factor code, wherever it is typed (sign-in, turning it on or
 * off, new recovery codes), counted per account from every client address together: each try counts
 * as a failure before it is checked (so a burst of guesses from many places is counted in full) and
 * the right code takes it back. The tenth wrong one in a day locks the account's codes for a day, or
 * until an owner lifts the lock, and mails the account (SECOND_FACTOR_LOCK).
 */
export function createSecondFactor(deps: { data: DataAccess; mailer: Mailer }) {
  const { data, mailer } = deps;
  const { maxFailures, windowMs, lockMs } = SECOND_FACTOR_LOCK;

  async function lockAndTell(account: StaffSecrets, failures: number, now: Date): Promise<ServiceError> {
    const until = new Date(now.getTime() + lockMs);
    const locked = await data.transaction(async (tx) => {
      if (!(await tx.staff.lockSecondFactor(account.id, now, until))) return false;
      await tx.audit.record({
        actorEmail: 'wrong two-factor codes',
        action: 'staff.two-factor-lock',
        target: account.email,
        oldValue: null,
        newValue: until.toISOString(),
      });
      await mailer.queue(
        tx,
        'staff-two-factor-locked',
        account.email,
        secondFactorLockedMail({ email: account.email, failures, until, resetUrl: mailer.link('/admin/forgot-password') }),
      );
      return true;
    });
    if (locked) mailer.nudge();
    return lockedError(locked ? until : await data.staff.secondFactorLockedUntil(account.id), now);
  }

  /** Runs one check of a code: its answer when right; null when wrong; a 429 while (or once) the account is locked. */
  async function guarded<T>(account: StaffSecrets, check: () => Promise<T | null>): Promise<T | null> {
    const now = new Date();
    const failures = await data.staff.countSecondFactorTry(account.id, now, windowMs);
    if (failures === null) throw lockedError(await data.staff.secondFactorLockedUntil(account.id), now);
    // More tries than the limit arrived together: the ones past it are not checked at all.
    if (failures > maxFailures) throw await lockAndTell(account, failures, now);
    const result = await check();
    if (result !== null) {
      await data.staff.takeBackSecondFactorTry(account.id);
      return result;
    }
    if (failures === maxFailures) throw await lockAndTell(account, failures, now);
    return null;
  }

  /** The app's code (each 30-second step's code works once) or a recovery code (used up): which one, or null when wrong. */
  function checkCode(account: StaffSecrets & { totpSecret: string }, code: string) {
    return guarded(account, async (): Promise<number | 'recovery' | null> => {
      if (/^\d{6}$/.test(code)) {
        const step = matchingTotpStep(account.totpSecret, code);
        return step !== null && (await data.staff.useTotpStep(account.id, step)) ? step : null;
      }
      return (await data.staff.useRecoveryCode(account.id, hashRecoveryCode(code))) ? 'recovery' : null;
    });
  }

  /** The first code of an app being set up (its secret waits for it): the code's step, or null when wrong. */
  function checkFirstCode(account: StaffSecrets, pendingSecret: string, code: string) {
    return guarded(account, async () => matchingTotpStep(pendingSecret, code));
  }

  /** For sign-in after the right password: 'missing' asks for the code, 'wrong' counts like a wrong password. */
  function atSignIn() {
    return async (account: StaffSecrets & { totpEnabledAt: Date | null }, code: string | undefined) => {
      if (!account.totpEnabledAt || !account.totpSecret) return 'ok' as const;
      if (!code) return 'missing' as const;
      return (await checkCode({ ...account, totpSecret: account.totpSecret }, code)) !== null ? ('ok' as const) : ('wrong' as const);
    };
  }

  return { checkCode, checkFirstCode, atSignIn };
}
