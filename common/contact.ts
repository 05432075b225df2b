import { z } from 'zod';

// SPEC 5: all four fields required, email of email type; sane length limits.
export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const ContactInput = z.object({
  name: required('Your name', CONTACT_LIMITS.name),
  email: required('Email address', CONTACT_LIMITS.email).pipe(z.email('Please enter a valid email address')),
  subject: required('Subject', CONTACT_LIMITS.subject),
  message: required('Message', CONTACT_LIMITS.message),
});
export type ContactInput = z.infer<typeof ContactInput>;
