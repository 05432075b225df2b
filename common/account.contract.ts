import { z } from 'zod';
import { emailField, requiredText } from './fields.ts';
import { LINK_TOKEN_LENGTH, PASSWORD_MIN_LENGTH, TEXT_MAX } from './limits.ts';
import type { Viewer } from './viewer.ts';

// The member's account beyond signing in: password reset, email verification and settings.

/** The same rules as sign-up (SPEC 5: at least 6 characters, 'Must be at least 6 characters'). */
const NewPassword = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(TEXT_MAX.password, `Password must be at most ${TEXT_MAX.password} characters`)
  .refine((value) => value.trim().length > 0, 'Password cannot be only spaces');

const token = z
  .string({ error: 'The link is missing its token' })
  .regex(new RegExp(`^[A-Za-z0-9_-]{${LINK_TOKEN_LENGTH.min},${LINK_TOKEN_LENGTH.max}}$`), 'This link is not valid.');
const currentPassword = z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(TEXT_MAX.password);

export const PasswordResetRequest = z.object({ email: emailField() });
export const PasswordResetConfirm = z.object({ token, password: NewPassword });
export const TokenInput = z.object({ token });
/** An unsubscribe link's token: any text of a token's length (a wrong one is the service's 'not valid'). */
export const UnsubscribeInput = z.object({ token: z.string().max(LINK_TOKEN_LENGTH.max) });
export const NameChange = z.object({ name: requiredText('Name', TEXT_MAX.name) });
export const EmailChangeRequest = z.object({ email: emailField('New email'), password: currentPassword });
export const PasswordChange = z.object({ current_password: currentPassword, new_password: NewPassword });
export const AccountDeletion = z.object({ password: currentPassword });

/** The one answer to a reset request, whether or not the account exists (no enumeration). */
export const RESET_REQUESTED = 'If an account exists for that email, we sent it a link to reset the password. The link works for 1 hour.';
export const RESET_LINK_INVALID = 'This link has expired or was already used. Ask for a new one.';
export const VERIFY_LINK_INVALID = 'This confirmation link has expired or was already used.';
export const WRONG_PASSWORD = 'Your current password is not right.';

interface EmailChoices {
  weekly_tips: boolean;
  optional_email: boolean;
}
export const WeeklyTipsInput = z.object({ weekly_tips: z.boolean({ error: 'weekly_tips must be true or false' }) });

export const MessageResponse = z.object({ success: z.literal(true), message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export interface AccountService {
  /** Mails a reset link if the account exists; the answer is the same either way. Limited per address and per email. */
  requestPasswordReset(viewer: Viewer, email: string): Promise<MessageResponse>;
  /** Sets the new password, ends every session, clears the sign-in lockout; a used, expired or unknown link is a 400. */
  resetPassword(viewer: Viewer, input: { token: string; password: string }): Promise<void>;
  requestStaffPasswordReset(viewer: Viewer, email: string): Promise<MessageResponse>;
  resetStaffPassword(viewer: Viewer, input: { token: string; password: string }): Promise<void>;
  verifyEmail(viewer: Viewer, token: string): Promise<void>;
  resendVerification(viewer: Viewer): Promise<MessageResponse>;
  changeName(viewer: Viewer, name: string): Promise<void>;
  /** Where the member is: times are shown in this zone (an IANA name, checked by TimeZone). */
  setTimeZone(viewer: Viewer, zone: string): Promise<void>;
  /** Which optional emails the member gets: the weekly tips, and all optional mail (off once they unsubscribe). */
  emailChoices(viewer: Viewer): Promise<EmailChoices>;
  setWeeklyTips(viewer: Viewer, on: boolean): Promise<void>;
  /** Mails a confirmation link to the new address and tells the old one; the change happens on confirmation. */
  requestEmailChange(viewer: Viewer, input: { email: string; password: string }): Promise<MessageResponse>;
  /** Moves the account to the new address, signs out every other session (the viewer's own stays) and tells the old address. */
  confirmEmailChange(viewer: Viewer, token: string): Promise<void>;
  /** Needs the current password; ends every other session and mails a notice. Returns how many sessions ended. */
  changePassword(viewer: Viewer, input: { current_password: string; new_password: string }): Promise<number>;
  /** Needs the password; deletes the member and their personal data, and tells them by email. */
  deleteAccount(viewer: Viewer, password: string): Promise<void>;
  /** One-click unsubscribe from mail the account does not need. */
  unsubscribe(token: string): Promise<void>;
  /** 'Download my data': everything the site holds of the member's own, as JSON text in pieces; so many an hour. */
  exportData(viewer: Viewer): Promise<AsyncIterable<string>>;
}
