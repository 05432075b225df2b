import { z } from 'zod';
import { optionalText, requiredText, uuidParam } from './fields.ts';
import { LICENCES } from './licence-limits.ts';
import type { Paged } from './paging.ts';
import { CE_TOPICS, LICENCE_TYPES, REQUIRED_TOPIC_CHOICES, STATE_CODES, type LicenceType, type UsState } from './licence-terms.ts';
import type { Viewer } from './viewer.ts';

// The continuing-education (CE) ledger for a real estate licence (issue 33, part 4): a member records
// the licences they hold, staff keep each state's requirement, courses carry CE hours approved per
// state, and the ledger shows per licence the hours done and missing per required topic until renewal.

export {
  CE_TOPIC_LABEL,
  CE_TOPICS,
  LICENCE_TYPE_LABEL,
  LICENCE_TYPES,
  REQUIRED_TOPIC_CHOICES,
  STATE_CODES,
  US_STATES,
  type CeTopic,
  type LicenceType,
  type UsState,
} from './licence-terms.ts';

export const LICENCE_NOT_FOUND = 'Licence not found';
export const CE_ENTRY_NOT_FOUND = 'CE entry not found';
export const LICENCE_TAKEN = 'You already recorded a licence in this state. Change that one instead.';
export const TOO_MANY_LICENCES = `You can record up to ${LICENCES.maxPerMember} licences.`;
export const TOO_MANY_OUTSIDE_ENTRIES = `You can record up to ${LICENCES.maxOutsideEntries} courses taken elsewhere, with ${LICENCES.maxCertificateBytesInAll / 1024 / 1024} MB of certificates. Remove old ones to add more.`;
export const COMPLETED_IN_FUTURE = 'The completion date cannot be in the future.';
export const NO_LICENCE_IN_STATE = 'Record your licence in this state first: outside CE counts toward a licence you hold.';
export const CERTIFICATE_TYPES_ACCEPTED = 'The certificate must be a PDF, JPEG or PNG file.';
export const REQUIREMENT_NOT_FOUND = 'No requirement is kept for this state and licence type.';

const state = z.enum(STATE_CODES, { error: 'Choose a state' });
const licenceType = z.enum(LICENCE_TYPES, { error: 'Licence type must be salesperson or broker' });
const topic = z.enum(CE_TOPICS, { error: `Topic must be one of: ${CE_TOPICS.join(', ')}` });
/** Hours in steps of a tenth (a 50-minute hour is 0.8 of one in some states, 1.5 hours is common), written as digits. */
const hours = (label: string, max: number) =>
  z.preprocess(
    // A form sends text: only plain digits are a number of hours ('0x10' and '1e1' are not).
    (value) => (typeof value === 'string' && /^\s*\d{1,4}(\.\d+)?\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: `${label} must be a number` })
      .min(0.1, `${label} must be at least 0.1`)
      .max(max, `${label} must be at most ${max}`)
      .refine((value) => Number.isInteger(Math.round(value * 10 * 1000) / 1000), `${label} may have one decimal at most`),
  );
/** A date of the licence's life: from 2000 to 2100 (a typo's year 0001 or 20260 is refused). */
const localDate = (label: string) =>
  z.iso
    .date(`${label} must be a date (YYYY-MM-DD)`)
    .refine((date) => date >= '2000-01-01' && date <= '2100-12-31', `${label} must be between 2000 and 2100`);

export const LicenceInput = z.object({
  state,
  licence_type: licenceType,
  /** Private: shown to the member only (never to a broker, never in a log). */
  licence_number: optionalText('Licence number', 40).default(''),
  renews_on: localDate('Renewal date'),
});
export type LicenceInput = z.infer<typeof LicenceInput>;

export const LicenceParams = z.object({ id: uuidParam('Licence') });
export const CeEntryParams = z.object({ id: uuidParam('CE entry') });

/** CE taken elsewhere, sent as multipart with its certificate file (`certificate`). */
export const OutsideCeInput = z.object({
  state,
  provider: requiredText('Provider', 150),
  course_name: requiredText('Course name', 200),
  hours: hours('Hours', LICENCES.maxEntryHours),
  topic,
  completed_on: localDate('Completion date'),
});
export type OutsideCeInput = z.infer<typeof OutsideCeInput>;

/** A state's requirement for a licence type, as staff keep it in the admin. */
export const RequirementInput = z
  .object({
    hours_per_cycle: hours('Hours per cycle', LICENCES.maxCycleHours),
    cycle_months: z.coerce
      .number({ error: 'Cycle length must be a number of months' })
      .int('Cycle length must be whole months')
      .min(6, 'Cycle length must be at least 6 months')
      .max(LICENCES.maxCycleMonths, `Cycle length must be at most ${LICENCES.maxCycleMonths} months`),
    topics: z
      .array(
        z.object({ topic: z.enum(REQUIRED_TOPIC_CHOICES, { error: 'Choose a required topic' }), min_hours: hours('Minimum hours', 100) }),
      )
      .max(REQUIRED_TOPIC_CHOICES.length)
      .refine((list) => new Set(list.map((each) => each.topic)).size === list.length, 'Each topic may be listed once'),
    note: optionalText('Note', 1000, { multiline: true }).default(''),
    commission_address: optionalText('Commission address', 300).default(''),
    check_with_commission: z.boolean().default(false),
  })
  .refine((input) => input.topics.reduce((sum, each) => sum + each.min_hours, 0) <= input.hours_per_cycle + 1e-9, {
    message: 'The required topics add up to more hours than the cycle asks for',
    path: ['topics'],
  });
export type RequirementInput = z.infer<typeof RequirementInput>;
export const RequirementParams = z.object({ state, licence_type: licenceType });

/** A course's CE: its hours and topic, and per state the approval number under which it counts. */
export const CourseCeInput = z.object({
  ce_hours: hours('CE hours', LICENCES.maxEntryHours).nullable(),
  ce_topic: topic.nullable(),
  ce_approvals: z
    .array(z.object({ state, approval_number: requiredText('Approval number', 60) }))
    .max(STATE_CODES.length)
    .refine((list) => new Set(list.map((each) => each.state)).size === list.length, 'Each state may be listed once')
    .default([]),
});
export type CourseCeInput = z.infer<typeof CourseCeInput>;
export const CourseCeView = z.object({
  ce_hours: z.number().nullable(),
  ce_topic: topic.nullable(),
  ce_approvals: z.array(z.object({ state, state_name: z.string(), approval_number: z.string() })),
});
export type CourseCeView = z.infer<typeof CourseCeView>;
export const CE_NEEDS_CERTIFICATE = 'A course that counts for CE issues a certificate: turn on "Certificate included" first.';
export const CE_NEEDS_HOURS = 'Give the CE hours and topic for the states that approve this course.';

export const RequirementView = z.object({
  state,
  state_name: z.string(),
  licence_type: licenceType,
  hours_per_cycle: z.number(),
  cycle_months: z.number().int(),
  topics: z.array(z.object({ topic, label: z.string(), min_hours: z.number() })),
  note: z.string(),
  commission_address: z.string(),
  check_with_commission: z.boolean(),
  updated_at: z.string(),
});
export type RequirementView = z.infer<typeof RequirementView>;
export const RequirementList = z.array(RequirementView);

/** Where a licence stands in its cycle: what is done and missing, in total and per required topic. */
export const LicenceStanding = z.object({
  id: z.string(),
  state,
  state_name: z.string(),
  licence_type: licenceType,
  licence_number: z.string(),
  renews_on: z.string(),
  /** The cycle's first day (the renewal date less the state's cycle, or two years without a requirement). */
  cycle_starts_on: z.string(),
  days_to_renewal: z.number().int(),
  /** Null while staff keep no requirement for the state and licence type. */
  requirement: RequirementView.nullable(),
  hours_done: z.number(),
  hours_required: z.number().nullable(),
  hours_missing: z.number(),
  topics: z.array(z.object({ topic, label: z.string(), required: z.number(), done: z.number(), missing: z.number() })),
  /** Every hour done, or as many done as the share of the cycle gone by. */
  on_track: z.boolean(),
});
export type LicenceStanding = z.infer<typeof LicenceStanding>;
export const LicenceList = z.array(LicenceStanding);

export const CeEntryView = z.object({
  id: z.string(),
  state,
  source: z.enum(['course', 'outside']),
  course_name: z.string(),
  provider: z.string(),
  hours: z.number(),
  topic,
  topic_label: z.string(),
  completed_on: z.string(),
  approval_number: z.string().nullable(),
  /** The certificate's public verification link (a course here) or the member's own file (CE elsewhere). */
  certificate_code: z.string().nullable(),
  certificate_file: z.object({ filename: z.string(), url: z.string() }).nullable(),
});
export type CeEntryView = z.infer<typeof CeEntryView>;
export const CeEntryPage = z.object({ items: z.array(CeEntryView), next_cursor: z.string().nullable() });

/** What a broker sees of an agent's ledger: per licence, whether they are on track, and nothing else. */
export const AgentLicenceStanding = z.object({
  state,
  licence_type: licenceType,
  /** Whether the site keeps the state's requirement: without it, nothing is known missing. */
  known: z.boolean(),
  hours_missing: z.number(),
  on_track: z.boolean(),
});
export type AgentLicenceStanding = z.infer<typeof AgentLicenceStanding>;

/** Rounds hours to the tenth they are kept in (sums of tenths in floating point drift). */
export const roundHours = (value: number) => Math.round(value * 10) / 10;

/**
 * On track for renewal: nothing missing, or at least as large a share of the hours done as of the
 * cycle gone by (a member halfway through a two-year cycle with half the hours is on track).
 */
export function isOnTrack(
  standing: { hoursDone: number; hoursRequired: number | null; hoursMissing: number },
  cycleShareGone: number,
): boolean {
  if (standing.hoursMissing <= 0) return true;
  if (standing.hoursRequired === null || standing.hoursRequired <= 0) return true;
  return standing.hoursDone / standing.hoursRequired >= Math.min(1, Math.max(0, cycleShareGone));
}

export interface LicenceService {
  ledger(viewer: Viewer): Promise<LicenceStanding[]>;
  entries(viewer: Viewer, state: UsState, after?: string): Promise<Paged<CeEntryView>>;
  addLicence(viewer: Viewer, input: LicenceInput): Promise<LicenceStanding>;
  updateLicence(viewer: Viewer, id: string, input: LicenceInput): Promise<LicenceStanding>;
  removeLicence(viewer: Viewer, id: string): Promise<void>;
  addOutsideEntry(viewer: Viewer, input: OutsideCeInput, certificate: { filename: string; content: Buffer }): Promise<CeEntryView>;
  removeOutsideEntry(viewer: Viewer, id: string): Promise<void>;
  requirements(viewer: Viewer): Promise<RequirementView[]>;
  saveRequirement(viewer: Viewer, key: { state: UsState; licence_type: LicenceType }, input: RequirementInput): Promise<RequirementView>;
  removeRequirement(viewer: Viewer, key: { state: UsState; licence_type: LicenceType }): Promise<void>;
  courseCe(viewer: Viewer, courseId: string): Promise<CourseCeView>;
  saveCourseCe(viewer: Viewer, courseId: string, input: CourseCeInput): Promise<CourseCeView>;
}
