import { z } from 'zod';
import { TwoFactorCode } from './auth.contract.ts';
import { TEXT_MAX } from './limits.ts';
import type { Viewer } from './viewer.ts';

// Staff two-factor sign-in: a code from an authenticator app (TOTP) after the password, or one of
// ten single-use recovery codes; owners may require it of every staff member.

export const TWO_FACTOR_REQUIRED_FOR_STAFF = 'Owners require two-factor sign-in for every staff member: it cannot be turned off.';
export const TWO_FACTOR_OWN_FIRST = 'Turn on two-factor sign-in for your own account first.';
export const TWO_FACTOR_NOT_LOCKED = 'Two-factor sign-in of this account is not locked.';

/** How long until a lock passes, as people read it: seconds, minutes, then hours. */
function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} minutes` : `${Math.ceil(minutes / 60)} hours`;
}

/** The answer while too many wrong codes keep an account's second factor locked (a 429, like any limit). */
export const secondFactorLocked = (remainingMs: number) =>
  `Too many attempts. Please wait ${waitText(remainingMs)} and try again: wrong codes locked two-factor sign-in of this account. An owner can lift the lock sooner.`;

/** The staff member's password again, before a change a stolen session must not make. */
const CurrentPassword = z
  .string({ error: 'Enter your current password' })
  .min(1, 'Enter your current password')
  .max(TEXT_MAX.password, 'Password is too long');

/** Turning two-factor sign-in on or off, and new recovery codes: a code, and the password again. */
export const TwoFactorConfirmInput = z.object({ code: TwoFactorCode, password: CurrentPassword });
export type TwoFactorConfirmInput = z.infer<typeof TwoFactorConfirmInput>;
export const TwoFactorRequiredInput = z.object({ required: z.boolean({ error: 'required must be true or false' }) });

export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** Owners require it of every staff member. */
  required: z.boolean(),
  recovery_codes_left: z.number().int(),
  /** Until when wrong codes keep every code of this account refused; null when they do not. */
  locked_until: z.string().nullable(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** What the app needs: the secret to type, and the otpauth:// address a phone opens (or a QR code shows). */
export const TwoFactorSetup = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** The recovery codes, shown once when two-factor sign-in is turned on or new ones are made. */
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export interface TwoFactorService {
  status(viewer: Viewer): Promise<TwoFactorStatus>;
  /** A new secret for the app; two-factor sign-in turns on once a code from it is entered, with the password. */
  begin(viewer: Viewer): Promise<TwoFactorSetup>;
  enable(viewer: Viewer, input: TwoFactorConfirmInput): Promise<RecoveryCodes>;
  disable(viewer: Viewer, input: TwoFactorConfirmInput): Promise<void>;
  /** Ten new recovery codes in place of those left (a code and the password prove it is the staff member). */
  newRecoveryCodes(viewer: Viewer, input: TwoFactorConfirmInput): Promise<RecoveryCodes>;
  /** Owners: whether every staff member must use it. */
  setRequired(viewer: Viewer, required: boolean): Promise<void>;
}
