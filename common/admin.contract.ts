import { z } from 'zod';
import { PaidTier, SubscriptionView } from './billing.contract.ts';
import { cursorParam, emailField, requiredText, singleQueryText, slugParam, uuidParam } from './fields.ts';
import { EnrolledCourse, MemberCertificate } from './learning.contract.ts';
import { StaffRole } from './staff-roles.ts';
import { Tier } from './tiers.ts';
import { BeforeQuery, type Paged } from './paging.ts';
import type { Viewer } from './viewer.ts';
import { TEXT_MAX } from './limits.ts';

// Shapes of the admin calls beyond the spec's (members, messages, audit log, session).

export const StaffSessionResponse = z.object({
  email: z.string(),
  storage_name: z.string(),
  role: StaffRole,
  two_factor_setup_needed: z.boolean(),
});
export type StaffSessionResponse = z.infer<typeof StaffSessionResponse>;

export const AdminMember = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** The tier the member has now: the higher of the complimentary tier and what they pay for. */
  membership_tier: Tier,
  /** Given by staff; payment events never lower it. */
  complimentary_tier: PaidTier.nullable(),
  /** Their current subscription, if they ever paid. */
  subscription: SubscriptionView.nullable(),
  created_at: z.string(),
});
export type AdminMember = z.infer<typeof AdminMember>;
export const AdminMemberList = z.array(AdminMember);

/** A search of the members (any part of a name or an email) and the page to read. */
export const MembersQuery = z.object({
  search: singleQueryText('search', TEXT_MAX.memberSearch).optional(),
  before: cursorParam().optional(),
});
export type MembersQuery = z.infer<typeof MembersQuery>;
export const MemberParams = z.object({ id: uuidParam('Member id') });
/** Staff give a complimentary tier ('free' takes it away); the member keeps any higher tier they pay for. */
export const MemberTierInput = z.object({ membership_tier: Tier });
export const MemberTierResponse = z.object({ success: z.literal(true), id: z.string(), membership_tier: Tier });
export type MemberTierResponse = z.infer<typeof MemberTierResponse>;
/** Staff open a course to one member before the course it builds on is completed: which, and why (the activity log keeps both). */
export const EarlyOpeningInput = z.object({
  course_id: slugParam('Course'),
  /** One dripped lesson of the course only (the rest keep their days); null or absent: the whole course. */
  lesson_id: slugParam('Lesson').nullable().default(null),
  reason: requiredText('Reason', TEXT_MAX.earlyOpeningReason),
});
export type EarlyOpeningInput = z.infer<typeof EarlyOpeningInput>;
export const EarlyOpening = z.object({
  member_id: z.string(),
  course_id: z.string(),
  course_title: z.string(),
  lesson_id: z.string().nullable(),
  lesson_title: z.string().nullable(),
  reason: z.string(),
});
export type EarlyOpening = z.infer<typeof EarlyOpening>;

export const ContactMessageRow = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  handled: z.boolean(),
  created_at: z.string(),
  /** Sent by a Silver or Gold member: priority support. */
  priority: z.boolean(),
  /** The sender's plan when they wrote, if they were signed in. */
  sender_tier: Tier.nullable(),
});
export type ContactMessageRow = z.infer<typeof ContactMessageRow>;
export const ContactMessageList = z.array(ContactMessageRow);
export const MessageParams = z.object({ id: uuidParam('Message id') });

/** The staff inbox: newest first or priority first, all or only those not replied to (or replied). */
export const MessagesQuery = BeforeQuery.extend({
  sort: z.enum(['newest', 'priority'], { error: 'sort must be newest or priority' }).default('newest'),
  status: z.enum(['all', 'open', 'replied'], { error: 'status must be all, open or replied' }).default('all'),
});
export type MessagesQuery = z.input<typeof MessagesQuery>;

/** One row of the audit log as the Activity tab shows it. */
export const AuditEntry = z.object({
  id: z.number().int(),
  actor_email: z.string(),
  action: z.string(),
  target: z.string(),
  old_value: z.unknown(),
  new_value: z.unknown(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditEntryList = z.array(AuditEntry);

export const MemberDetail = z.object({
  member: AdminMember,
  enrolments: z.array(EnrolledCourse),
  certificates: z.array(MemberCertificate),
  /** The member's sessions, newest first: when, from where, and whether still signed in. */
  sign_ins: z.array(
    z.object({ started_at: z.string(), last_seen_at: z.string(), device: z.string(), address: z.string(), active: z.boolean() }),
  ),
  activity: z.array(AuditEntry),
  /** Where the next page of each list starts (null: it is the last): `?courses=`, `?certificates=`, `?activity=`. */
  next: z.object({ courses: z.string().nullable(), certificates: z.string().nullable(), activity: z.string().nullable() }),
});
export type MemberDetail = z.infer<typeof MemberDetail>;
/** Which page of each of the member page's lists to show. */
export const MemberDetailQuery = z.object({
  courses: cursorParam().optional(),
  certificates: cursorParam().optional(),
  activity: cursorParam().optional(),
});
export type MemberDetailQuery = z.infer<typeof MemberDetailQuery>;

const WeekCount = z.object({ week: z.string(), count: z.number().int() });
/** The staff dashboard: signups and enrolments per week (the last 12), and members by tier now. */
export const MembersOverview = z.object({
  signups_by_week: z.array(WeekCount),
  enrolments_by_week: z.array(WeekCount),
  members_by_tier: z.object({ free: z.number().int(), bronze: z.number().int(), silver: z.number().int(), gold: z.number().int() }),
});
export type MembersOverview = z.infer<typeof MembersOverview>;

export interface MembersService {
  detail(viewer: Viewer, memberId: string, query?: MemberDetailQuery): Promise<MemberDetail>;
  overview(viewer: Viewer): Promise<MembersOverview>;
  /** Members newest first, a page at a time; matching the search when one is given. */
  search(viewer: Viewer, query: MembersQuery): Promise<Paged<AdminMember>>;
  /** Every matching member as CSV lines, in pages, so no export is ever cut short. */
  exportCsv(viewer: Viewer, search: string | undefined): AsyncIterable<string>;
  setTier(viewer: Viewer, memberId: string, tier: Tier): Promise<MemberTierResponse>;
  /** Opens a course that builds on another to this member now (once; an audit entry says who and why). */
  openCourseEarly(viewer: Viewer, memberId: string, input: EarlyOpeningInput): Promise<EarlyOpening>;
  /** The dripped lessons of the catalogue, for 'Open a course early' to open one of them alone. */
  drippedLessons(viewer: Viewer): Promise<{ id: string; title: string; course_id: string; course_title: string }[]>;
}

export interface MessagesService {
  /** Contact messages, newest first, a page at a time. */
  list(viewer: Viewer, query?: MessagesQuery): Promise<Paged<ContactMessageRow>>;
  markHandled(viewer: Viewer, messageId: string): Promise<void>;
}

export interface AuditService {
  /** The audit log, newest first, a page at a time. */
  list(viewer: Viewer, query?: BeforeQuery): Promise<Paged<AuditEntry>>;
}

export const StaffAccount = z.object({
  id: z.string(),
  email: z.string(),
  role: StaffRole,
  created_at: z.string(),
  you: z.boolean(),
  /** Until when wrong two-factor codes keep the account's codes refused (an owner may lift it); null when they do not. */
  two_factor_locked_until: z.string().nullable(),
});
export type StaffAccount = z.infer<typeof StaffAccount>;
export const StaffAccountList = z.array(StaffAccount);
export const StaffInvitation = z.object({ email: emailField(), role: StaffRole });
export type StaffInvitation = z.infer<typeof StaffInvitation>;
export const StaffRoleInput = z.object({ role: StaffRole });
export const StaffParams = z.object({ id: uuidParam('Staff id') });
export const STAFF_EXISTS = 'There is already a staff account with this email.';
export const LAST_OWNER = 'The site needs at least one owner: make someone else an owner first.';

export interface StaffService {
  session(viewer: Viewer): StaffSessionResponse;
  // Owners only.
  /** The staff accounts, oldest first, a page at a time (`?before=` the last shown). */
  list(viewer: Viewer, query?: BeforeQuery): Promise<Paged<StaffAccount>>;
  /** A new staff account with this role, and an email with a link to choose its password (7 days). */
  invite(viewer: Viewer, invitation: StaffInvitation): Promise<StaffAccount>;
  setRole(viewer: Viewer, staffId: string, role: StaffRole): Promise<StaffAccount>;
  /** Removes the account and ends its sessions; never the last owner. */
  remove(viewer: Viewer, staffId: string): Promise<void>;
  /** Lifts the lock wrong two-factor codes put on an account, before it passes (audited). */
  liftTwoFactorLock(viewer: Viewer, staffId: string): Promise<StaffAccount>;
  // Each staff member's own, with their password again (a stolen session alone changes nothing).
  /** Their email, at once; the old address is told. */
  changeEmail(viewer: Viewer, input: { email: string; password: string }): Promise<{ success: true; message: string }>;
  /** Their password; every session of the account ends, this one too, and the account is told. */
  changePassword(viewer: Viewer, input: { current_password: string; new_password: string }): Promise<void>;
}
