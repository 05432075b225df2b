import { z } from 'zod';
import { emailField, requiredText } from './fields.ts';
import { PASSWORD_MIN_LENGTH, TEXT_MAX, TOTP_DIGITS } from './limits.ts';
import { Tier } from './tiers.ts';
import type { Viewer } from './viewer.ts';

// SPEC 5 / 7: sign-in and sign-up, one schema per form, used by the page action and the API route.

const password = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(TEXT_MAX.password, 'Password is too long');

export const LoginInput = z.object({ email: emailField(), password });
export type LoginInput = z.infer<typeof LoginInput>;

export const TWO_FACTOR_CODE_NEEDED = 'Enter the 6-digit code from your authenticator app (or a recovery code).';
export const TWO_FACTOR_CODE_WRONG = 'That code is not right, or was used already. Enter the code your app shows now.';

/** A staff member's second factor: six digits from the authenticator app, or a recovery code (`abcde-fghij`). */
export const TwoFactorCode = z
  .string({ error: 'Enter the code' })
  .trim()
  .toLowerCase()
  .regex(
    new RegExp(`^(\\d{${TOTP_DIGITS}}|[a-z2-7]{5}-[a-z2-7]{5})$`),
    `Enter the ${TOTP_DIGITS} digits your app shows, or a recovery code`,
  );

/** Staff sign-in: the password, and the code when the account uses two-factor sign-in. */
export const StaffLoginInput = LoginInput.extend({ code: z.union([TwoFactorCode, z.literal('')]).optional() });
export type StaffLoginInput = z.infer<typeof StaffLoginInput>;

export const RegisterInput = z.object({
  name: requiredText('Name', TEXT_MAX.name),
  email: emailField(),
  password: z
    .string({ error: 'Password is required' })
    .min(PASSWORD_MIN_LENGTH, `Must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(TEXT_MAX.password, `Password must be at most ${TEXT_MAX.password} characters`)
    .refine((value) => value.trim().length > 0, 'Password cannot be only spaces'),
});
export type RegisterInput = z.infer<typeof RegisterInput>;

/** The sign-up form also asks to accept the terms (SPEC 5: the terms checkbox is required). */
export const SignupForm = RegisterInput.extend({
  terms: z.literal('on', { error: 'Please accept the Terms of Service to continue' }),
});

/** SPEC 7: both calls return a token; the web app uses the HttpOnly cookie set beside it. */
export const TokenResponse = z.object({ token: z.string() });
export const StaffTokenResponse = z.object({ token: z.string(), email: z.string() });

export const MeResponse = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  membership_tier: Tier,
  created_at: z.string(),
  email_verified: z.boolean(),
});
export type MeResponse = z.infer<typeof MeResponse>;

export const RevokeOthersResponse = z.object({ success: z.literal(true), ended: z.number().int() });

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const EMAIL_TAKEN = 'An account with this email already exists. Please log in instead.';

/** A session just started: the token goes to the client (body or cookie), never into a log. */
interface NewSession {
  token: string;
  expiresAt: Date;
}

/** One of the member's devices: a session that still works, where and when it was used. */
export const DeviceView = z.object({
  id: z.string(),
  device: z.string(),
  address: z.string(),
  signed_in_at: z.string(),
  last_used_at: z.string(),
  /** The device this request comes from. */
  current: z.boolean(),
});
export type DeviceView = z.infer<typeof DeviceView>;
export const DeviceList = z.array(DeviceView);

export interface AuthService {
  /** Creates a free member and signs them in; an email already taken (in any letter case) is a 409. */
  register(viewer: Viewer, input: RegisterInput): Promise<NewSession>;
  /** The same answer and timing for an unknown email and a wrong password; limited per address and account. */
  signIn(viewer: Viewer, input: LoginInput): Promise<NewSession>;
  /** Ends the member's current session (nothing to do for a visitor). */
  signOut(viewer: Viewer): Promise<void>;
  /** Ends every other session of the member (a lost phone, a shared computer); returns how many. */
  revokeOtherSessions(viewer: Viewer): Promise<number>;
  /** The member's devices, the most recently used first. */
  devices(viewer: Viewer): Promise<DeviceView[]>;
  /** Signs one of the member's own devices out; a 404 for any other session. */
  signOutDevice(viewer: Viewer, sessionId: string): Promise<void>;
  me(viewer: Viewer): MeResponse;
  /** Staff sign-in: the same machinery, stricter limits with a growing wait. */
  /** With two-factor sign-in on, the code too (a 401 that asks for it when it is missing). */
  staffSignIn(viewer: Viewer, input: StaffLoginInput): Promise<NewSession & { email: string }>;
  staffSignOut(viewer: Viewer): Promise<void>;
}
