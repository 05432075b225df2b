import { z } from 'zod';
import { emailField, requiredText } from './fields.ts';
import type { Viewer } from './viewer.ts';

// SPEC 5: all four fields required, email of email type; sane length limits.
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

export const ContactInput = z.object({
  name: requiredText('Your name', CONTACT_LIMITS.name),
  email: emailField('Email address'),
  subject: requiredText('Subject', CONTACT_LIMITS.subject),
  message: requiredText('Message', CONTACT_LIMITS.message),
});
export type ContactInput = z.infer<typeof ContactInput>;

export interface ContactService {
  /** Stores the message for staff; limited per client address. */
  send(viewer: Viewer, input: ContactInput): Promise<void>;
}
