import { z } from 'zod';
import { emailField, requiredText } from './fields.ts';
import type { Viewer } from './viewer.ts';
import { TEXT_MAX } from './limits.ts';

// SPEC 5: all four fields required, email of email type; sane length limits.

export const ContactInput = z.object({
  name: requiredText('Your name', TEXT_MAX.name),
  email: emailField('Email address'),
  subject: requiredText('Subject', TEXT_MAX.contactSubject),
  message: requiredText('Message', TEXT_MAX.contactMessage, { multiline: true }),
});
export type ContactInput = z.infer<typeof ContactInput>;

export interface ContactService {
  /** Stores the message for staff; limited per client address. */
  send(viewer: Viewer, input: ContactInput): Promise<void>;
}
