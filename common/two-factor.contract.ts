import { z } from 'zod';
import { TwoFactorCode } from './auth.contract.ts';
import type { Viewer } from './viewer.ts';

// Staff two-factor sign-in: a code from an authenticator app (TOTP) after the password, or one of
// ten single-use recovery codes; owners may require it of every staff member.

export const TWO_FACTOR_REQUIRED_FOR_STAFF = 'Owners require two-factor sign-in for every staff member: it cannot be turned off.';
export const TWO_FACTOR_OWN_FIRST = 'Turn on two-factor sign-in for your own account first.';

export const TwoFactorCodeInput = z.object({ code: TwoFactorCode });
export const TwoFactorRequiredInput = z.object({ required: z.boolean({ error: 'required must be true or false' }) });

export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** Owners require it of every staff member. */
  required: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** What the app needs: the secret to type, and the otpauth:// address a phone opens (or a QR code shows). */
export const TwoFactorSetup = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** The recovery codes, shown once when two-factor sign-in is turned on. */
export const RecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

export interface TwoFactorService {
  status(viewer: Viewer): Promise<TwoFactorStatus>;
  /** A new secret for the app; two-factor sign-in turns on once a code from it is entered. */
  begin(viewer: Viewer): Promise<TwoFactorSetup>;
  enable(viewer: Viewer, code: string): Promise<RecoveryCodes>;
  disable(viewer: Viewer, code: string): Promise<void>;
  /** Owners: whether every staff member must use it. */
  setRequired(viewer: Viewer, required: boolean): Promise<void>;
}
