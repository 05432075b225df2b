import { z } from 'zod';
import { optionalText, requiredText, uuidParam } from './fields.ts';
import { AUTOMATIONS, LIFECYCLE } from './lifecycle-terms.ts';
import type { Viewer } from './viewer.ts';

// Lifecycle mail (issue 34, part 2) as the API takes and gives it: the automations with their
// settings and figures (staff), an owner's change to one, and the counted link of a sent mail.

export const AutomationParams = z.object({
  key: z.enum(AUTOMATIONS, { error: `Choose an automation: ${AUTOMATIONS.join(', ')}` }),
});

export const AutomationInput = z.object({
  enabled: z.boolean({ error: 'Say whether the mail goes (true or false)' }),
  subject: requiredText('The subject', LIFECYCLE.subjectMax),
  body: requiredText('The message', LIFECYCLE.bodyMax, { multiline: true }),
  delay_days: z.coerce
    .number({ error: 'The delay must be a number of days' })
    .int('The delay must be a whole number of days')
    .min(0, 'The delay cannot be negative')
    .max(LIFECYCLE.maxDelayDays, `Wait at most ${LIFECYCLE.maxDelayDays} days`),
  /** Win-back's offer code; empty for none. */
  offer_code: optionalText('The offer code', 40)
    .optional()
    .transform((code) => (code ? code.toUpperCase() : null)),
});
export type AutomationInput = z.input<typeof AutomationInput>;
export type AutomationSettings = z.output<typeof AutomationInput>;

const count = z.number().int();
export const AutomationView = z.object({
  key: z.enum(AUTOMATIONS),
  label: z.string(),
  /** What the delay counts from ('days after sign-up'). */
  delay_label: z.string(),
  enabled: z.boolean(),
  subject: z.string(),
  body: z.string(),
  delay_days: count,
  offer_code: z.string().nullable(),
  /** When an owner last changed it; null while it is as it started. */
  updated_at: z.string().nullable(),
  /** Over the last LIFECYCLE.statsDays days: mails sent, opened through their links, and what followed. */
  figures: z.object({ sent: count, opened: count, returned: count, upgraded: count, renewed: count }),
});
export type AutomationView = z.infer<typeof AutomationView>;

export const Automations = z.object({
  automations: z.array(AutomationView),
  /** Whether this staff member may change them (owners). */
  may_edit: z.boolean(),
});
export type Automations = z.infer<typeof Automations>;

export const LifecycleMailParams = z.object({ id: uuidParam('Mail') });
export const LifecycleLinkQuery = z.object({
  // A page of the site only: the redirect is never an open door elsewhere.
  to: z.string({ error: 'This link has no destination' }).regex(/^\/(?![/\\])[^\s\\]*$/, 'This link does not lead to a page of the site'),
});

export interface LifecycleService {
  list(viewer: Viewer): Promise<Automations>;
  save(viewer: Viewer, key: AutomationView['key'], input: AutomationSettings): Promise<AutomationView>;
  /** A followed link of a sent mail: counts its opening, answers where to go. */
  follow(mailId: string, to: string): Promise<string>;
}
