import { sql } from 'drizzle-orm';
import { SUBSCRIPTION_STATUSES } from '../common/billing.contract.ts';
import { OFFER_DURATIONS } from '../common/offers.contract.ts';
import { COMMUNITY_SPACES } from '../common/community.contract.ts';
import { BROADCAST_STATUSES } from '../common/broadcasts.contract.ts';
import { DIGESTS, NOTIFICATION_KINDS } from '../common/notifications.contract.ts';
import { COACHING_KINDS } from '../common/coaching.contract.ts';
import { COURSE_CATEGORIES, COURSE_LEVELS, COURSE_STATUSES, LESSON_KINDS } from '../common/courses.contract.ts';
import { CAPTION_LANGUAGE_CODES, type CaptionLanguage } from '../common/course-kinds.ts';
import type { Cue } from '../common/webvtt.ts';
import { UPLOAD_FOLDER_VALUES } from '../common/files.contract.ts';
import { QUESTION_KINDS } from '../common/quizzes.contract.ts';
import { RESOURCE_TYPES } from '../common/resources.contract.ts';
import { BILLING_PERIODS, PAID_TIERS } from '../common/pricing.ts';
import { TIERS } from '../common/tiers.ts';
import { CE_TOPICS, LICENCE_TYPES, STATE_CODES } from '../common/licence.contract.ts';
import { STAFF_ROLES } from '../common/staff-roles.ts';
import { AUTOMATIONS } from '../common/lifecycle-terms.ts';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** PostgreSQL full-text search's document type (community search, migration 0012). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

// Tables are plural snake_case; TypeScript keys are camelCase (drizzle casing: 'snake_case').
const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
/** Continuing-education hours, kept to the tenth (1.5 hours, a 50-minute hour as 0.8). */
const ceHours = () => numeric({ precision: 5, scale: 1, mode: 'number' });

/** A CHECK constraint that keeps a text column within one of the vocabularies in common/. */
const oneOf = (column: string, values: readonly string[]) => sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(', ')})`);

export const SESSION_KINDS = ['member', 'staff'] as const;

export const members = pgTable(
  'members',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    /**
     * The tier the member has now, which every access check reads: the higher of the complimentary
     * tier and the tier of a subscription that gives access (server/billing/membership-tier.ts).
     */
    membershipTier: text({ enum: TIERS }).notNull().default('free'),
    /** A tier given by staff, which payment events never lower; null for none. */
    complimentaryTier: text({ enum: PAID_TIERS }),
    /** The member's Stripe customer, created once, at their first checkout. */
    stripeCustomerId: text(),
    /** Staff suspended the member from posting in the community. */
    communitySuspendedAt: timestamp({ withTimezone: true }),
    emailVerifiedAt: timestamp({ withTimezone: true }),
    /** The member asked for no email beyond what their account needs (one-click unsubscribe). */
    emailOptOut: boolean().notNull().default(false),
    /** Where the member is (an IANA zone): times are shown in it. Null until set, then the browser's. */
    timeZone: text(),
    /** The weekly tips email, which the member can switch off on /account. */
    weeklyTips: boolean().notNull().default(true),
    /** When the member's one free trial began: an account has one trial, ever. */
    trialUsedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [
    // The weekly tips run reads the members of the zones where it is Monday morning.
    index('members_weekly_tips_zone_idx')
      .on(t.timeZone, t.id)
      .where(sql`weekly_tips and not email_opt_out`),
    // Emails are unique regardless of case.
    uniqueIndex('members_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('members_stripe_customer_idx').on(t.stripeCustomerId),
    // Staff's member list, newest first, a page at a time; staff search by any part of a name or email (pg_trgm).
    index('members_created_idx').on(t.createdAt, t.id),
    index('members_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('members_email_trgm_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
    check('members_tier_check', oneOf('membership_tier', TIERS)),
    check('members_complimentary_tier_check', sql`${sql.raw('complimentary_tier')} is null or ${oneOf('complimentary_tier', PAID_TIERS)}`),
  ],
);

export const staffAccounts = pgTable(
  'staff_accounts',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    /** 'owner' manages staff, members' tiers and billing; 'editor' authors content only. */
    role: text({ enum: STAFF_ROLES }).notNull().default('owner'),
    /** The authenticator app's secret (base32), once the staff member set up two-factor sign-in. */
    totpSecret: text(),
    /** When two-factor sign-in was turned on; null while it is off (a secret may be waiting for its first code). */
    totpEnabledAt: timestamp({ withTimezone: true }),
    /** The last 30-second step whose code was used: a code works once. */
    totpLastStep: bigint({ mode: 'number' }),
    /** Two-factor codes tried since the last right one, from every address (SECOND_FACTOR_LOCK), and when the last was. */
    secondFactorFailures: integer().notNull().default(0),
    secondFactorFailedAt: timestamp({ withTimezone: true }),
    /** Too many wrong codes: every code is refused until then, unless an owner lifts the lock sooner. */
    secondFactorLockedUntil: timestamp({ withTimezone: true }),
    /** The name members see when this staff member hosts a session or coaches ('' until they set it). */
    displayName: text().notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('staff_accounts_email_lower_idx').on(sql`lower(${t.email})`),
    /** The staff's list, oldest first, a page at a time. */
    index('staff_accounts_created_idx').on(t.createdAt, t.id),
    check('staff_accounts_role_check', oneOf('role', STAFF_ROLES)),
  ],
);

/** Single-use codes that stand in for the authenticator app (a lost phone), by their SHA-256. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    staffId: uuid()
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.codeHash] })],
);

/** Settings the owners choose for the whole site (whether every staff member must use two-factor sign-in). */
export const siteSettings = pgTable('site_settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: createdAt(),
  updatedBy: text(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    // SHA-256 of the random token; the token itself is never stored.
    tokenHash: text().notNull().unique(),
    kind: text({ enum: SESSION_KINDS }).notNull(),
    memberId: uuid().references(() => members.id, { onDelete: 'cascade' }),
    staffId: uuid().references(() => staffAccounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    userAgent: text(),
    ipAddress: text(),
  },
  (t) => [
    index('sessions_member_idx').on(t.memberId),
    index('sessions_staff_idx').on(t.staffId),
    // The hourly purge finds sessions past their end without reading the table.
    index('sessions_expires_idx').on(t.expiresAt),
    check(
      'sessions_owner_check',
      sql`(kind = 'member' and member_id is not null and staff_id is null) or (kind = 'staff' and staff_id is not null and member_id is null)`,
    ),
  ],
);

export const courses = pgTable(
  'courses',
  {
    id: text().primaryKey(),
    title: text().notNull(),
    description: text().notNull(),
    category: text({ enum: COURSE_CATEGORIES }).notNull(),
    tier: text({ enum: TIERS }).notNull(),
    thumbnail: text().notNull(),
    duration: text().notNull(),
    instructor: text().notNull(),
    level: text({ enum: COURSE_LEVELS }).notNull().default('beginner'),
    /** Finishing every lesson issues a certificate ('Certificate included'). */
    certificate: boolean().notNull().default(true),
    /** The certificate states the member's score in the course's quizzes (their best passing try of each, averaged). */
    certificateShowsScore: boolean().notNull().default(false),
    /** Only published courses are listed; archived ones stay open to the members enrolled in them. */
    status: text({ enum: COURSE_STATUSES }).notNull().default('published'),
    /** The uploaded image shown as thumbnail, when staff chose one (thumbnail holds its address). */
    thumbnailFileId: uuid().references(() => uploadedFiles.id, { onDelete: 'set null' }),
    position: integer().notNull().default(0),
    /**
     * Gold's early access: until this moment the course is Gold's alone (its tier is 'gold'), then the
     * minute job opens it to `early_access_tier` (decision 017).
     */
    earlyAccessTier: text({ enum: TIERS }),
    earlyAccessUntil: timestamp({ withTimezone: true }),
    /** A course to complete before this one is started (or staff open this one early for a member). */
    prerequisiteCourseId: text().references((): AnyPgColumn => courses.id, { onDelete: 'set null' }),
    /** Continuing-education hours the course carries, and their topic, where states approve it (course_ce_approvals). */
    ceHours: ceHours(),
    ceTopic: text({ enum: CE_TOPICS }),
    createdAt: createdAt(),
  },
  (t) => [
    /** Catalogue order (position, then title): the staff's list a page at a time, and the catalogue. */
    index('courses_position_idx').on(t.position, t.title, t.id),
    check('courses_ce_check', sql`${sql.raw('ce_topic')} is null or ${oneOf('ce_topic', CE_TOPICS)}`),
    check('courses_prerequisite_check', sql`${sql.raw('prerequisite_course_id')} <> ${sql.raw('id')}`),
    // The courses that require this one (a course is not removed while others name it).
    index('courses_prerequisite_idx')
      .on(t.prerequisiteCourseId)
      .where(sql`prerequisite_course_id is not null`),
    check('courses_tier_check', oneOf('tier', TIERS)),
    check(
      'courses_early_access_check',
      sql`(${sql.raw('early_access_tier')} is null and ${sql.raw('early_access_until')} is null) or (${sql.raw('early_access_until')} is not null and ${sql.raw('tier')} = 'gold' and ${sql.raw('early_access_tier')} in ('free', 'bronze', 'silver'))`,
    ),
    check('courses_category_check', oneOf('category', COURSE_CATEGORIES)),
    check('courses_level_check', oneOf('level', COURSE_LEVELS)),
    check('courses_status_check', oneOf('status', COURSE_STATUSES)),
  ],
);

export const lessons = pgTable(
  'lessons',
  {
    id: text().primaryKey(),
    courseId: text()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    title: text().notNull(),
    duration: text().notNull(),
    description: text().notNull(),
    /** An external video (YouTube, Vimeo...); the site cannot protect it. */
    videoUrl: text(),
    /** A video in the file store, served only to entitled members. */
    videoFileId: uuid().references(() => uploadedFiles.id, { onDelete: 'set null' }),
    /** A free preview: its video is open to everyone. */
    freePreview: boolean().notNull().default(false),
    /** A video lesson (a video, or words to read), or a quiz (the quizzes table), completed by passing it. */
    kind: text({ enum: LESSON_KINDS }).notNull().default('video'),
    /** Drip: the lesson opens this many days after the member started the course (midnight, their time)... */
    opensAfterDays: integer(),
    /** ...or on this date (midnight, the member's time); neither: it opens with the course. */
    opensOn: date({ mode: 'string' }),
  },
  (t) => [
    index('lessons_course_idx').on(t.courseId, t.position),
    check('lessons_kind_check', oneOf('kind', LESSON_KINDS)),
    check(
      'lessons_drip_check',
      sql`(${sql.raw('opens_after_days')} is null or ${sql.raw('opens_on')} is null) and coalesce(${sql.raw('opens_after_days')} between 1 and 365, true)`,
    ),
    // The dripped lessons, which the minute job reads to tell members of their openings.
    index('lessons_dripped_idx')
      .on(t.courseId)
      .where(sql`opens_after_days is not null or opens_on is not null`),
    // Which lessons play a stored file (who may open it by its id, server/files/files.repository.ts).
    index('lessons_video_file_idx')
      .on(t.videoFileId)
      .where(sql`video_file_id is not null`),
  ],
);

/**
 * A lesson video's captions in one language: the WebVTT file from the library (served through the
 * lesson's own rules), its cues read once when staff chose it (the transcript under the video), and
 * their words for search (a GIN index, migration 0046).
 */
/** A video's captions in one language: the WebVTT file (kept while in use), its cues and their words (the transcript and its search). */
const captionColumns = () => ({
  language: text({ enum: CAPTION_LANGUAGE_CODES as [CaptionLanguage, ...CaptionLanguage[]] }).notNull(),
  fileId: uuid()
    .notNull()
    .references(() => uploadedFiles.id, { onDelete: 'restrict' }),
  cues: jsonb().$type<Cue[]>().notNull(),
  transcript: text().notNull(),
  createdAt: createdAt(),
});

export const lessonCaptions = pgTable(
  'lesson_captions',
  {
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    ...captionColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.lessonId, t.language] }),
    index('lesson_captions_file_idx').on(t.fileId),
    index('lesson_captions_search_idx').using('gin', sql`to_tsvector('english', ${t.transcript})`),
    check('lesson_captions_language_check', oneOf('language', CAPTION_LANGUAGE_CODES)),
  ],
);

/** Files from the library that go with a lesson, in order. */
export const lessonAttachments = pgTable(
  'lesson_attachments',
  {
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    fileId: uuid()
      .notNull()
      .references(() => uploadedFiles.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.lessonId, t.fileId] }), index('lesson_attachments_file_idx').on(t.fileId)],
);

/**
 * Staff opening a course to one member before its rule would (its prerequisite not completed): who,
 * by whom and why, once per member and course; the audit log has the same entry.
 */
export const earlyOpenings = pgTable(
  'early_openings',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    courseId: text()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    openedById: uuid().references(() => staffAccounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.courseId] })],
);

/** Staff opening one dripped lesson to one member before its day: who, by whom and why, once (the audit log has it too). */
export const lessonEarlyOpenings = pgTable(
  'lesson_early_openings',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    openedById: uuid().references(() => staffAccounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.lessonId] })],
);

/** A dripped lesson's opening told to a member (the notifications centre, by their choice of channel): once. */
export const lessonOpeningsTold = pgTable(
  'lesson_openings_told',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    toldAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.lessonId] })],
);

export const enrolments = pgTable(
  'enrolments',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    courseId: text()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    enrolledAt: createdAt(),
    /** Lessons of the course the member completed, kept by a trigger on lesson_progress (migration 0014). */
    completedLessons: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.courseId] }),
    // A member's courses, latest first, a page at a time; a course's learners.
    index('enrolments_member_recent_idx').on(t.memberId, t.enrolledAt, t.courseId),
    index('enrolments_course_idx').on(t.courseId),
    // The staff dashboard's enrolments per week.
    index('enrolments_enrolled_idx').on(t.enrolledAt),
  ],
);

/**
 * Each course's learner figures, kept by triggers on enrolments and certificates with every change
 * (migration 0022): the staff's course list reads one row per course instead of grouping every enrolment.
 */
/** Members per tier, moved by every statement that adds, removes or re-tiers members (migration 0029). */
export const memberTierCounts = pgTable(
  'member_tier_counts',
  {
    tier: text({ enum: TIERS }).primaryKey(),
    members: integer().notNull().default(0),
  },
  () => [check('member_tier_counts_tier_check', oneOf('tier', TIERS))],
);

/**
 * Counts per week (Monday), kept by triggers: sign-ups and enrolments (UTC weeks) for the staff's
 * charts; discussions, replies and lessons completed (the business's weeks, migration 0057) for
 * Insights. Each chart reads a few dozen rows instead of counting every row of a year.
 */
const WEEKLY_METRICS = ['signups', 'enrolments', 'discussions', 'replies', 'lessons_completed'] as const;
export const weeklyCounts = pgTable(
  'weekly_counts',
  {
    metric: text({ enum: WEEKLY_METRICS }).notNull(),
    week: date().notNull(),
    value: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.metric, t.week] }), check('weekly_counts_metric_check', oneOf('metric', WEEKLY_METRICS))],
);

export const courseLearnerCounts = pgTable('course_learner_counts', {
  courseId: text()
    .primaryKey()
    .references(() => courses.id, { onDelete: 'cascade' }),
  enrolled: integer().notNull().default(0),
  certified: integer().notNull().default(0),
  /** The sum of the enrolments' completed lessons, for the average progress. */
  completedLessons: bigint({ mode: 'number' }).notNull().default(0),
});

export const lessonProgress = pgTable(
  'lesson_progress',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    completedAt: createdAt(),
  },
  // The Insights tab's lessons completed per week.
  (t) => [primaryKey({ columns: [t.memberId, t.lessonId] }), index('lesson_progress_completed_idx').on(t.completedAt)],
);

/**
 * The weeks (Monday, in the business's zone since migration 0056; UTC before) each member used the
 * site, written by a trigger on their sessions as they are used (migration 0052): the Insights tab's
 * weekly active members and its cohorts' active share, a row a member a week.
 */
export const memberActiveWeeks = pgTable(
  'member_active_weeks',
  {
    week: date().notNull(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.week, t.memberId] })],
);

/** Where a member stopped in a lesson's video, so any device resumes there. */
export const lessonPositions = pgTable(
  'lesson_positions',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    positionSeconds: real().notNull(),
    durationSeconds: real().notNull(),
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.lessonId] })],
);

export const certificates = pgTable(
  'certificates',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    courseId: text()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    // Public verification code printed on the certificate.
    code: text().notNull().unique(),
    // Name and course title as they were when issued, so the certificate never changes afterwards.
    memberName: text().notNull(),
    courseTitle: text().notNull(),
    /** The score it states, where the course's certificate shows one (percent); null otherwise. */
    scorePercent: integer(),
    issuedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('certificates_member_course_idx').on(t.memberId, t.courseId),
    index('certificates_member_recent_idx').on(t.memberId, t.issuedAt, t.id),
    // Lifecycle mail's 'course finished'.
    index('certificates_issued_idx').on(t.issuedAt),
  ],
);

// The continuing-education ledger (issue 33, part 4): the licences members hold, each state's
// requirement as staff keep it, the states that approve a course, and the hours each member did.

/** A state's CE requirement for a licence type: hours per cycle, and the minimum of required topics. */
export const ceRequirements = pgTable(
  'ce_requirements',
  {
    state: text({ enum: STATE_CODES }).notNull(),
    licenceType: text({ enum: LICENCE_TYPES }).notNull(),
    hoursPerCycle: ceHours().notNull(),
    cycleMonths: integer().notNull(),
    /** The required topics with their minimum hours; the rest of the total is elective. */
    topics: jsonb().$type<{ topic: string; minHours: number }[]>().notNull().default([]),
    note: text().notNull().default(''),
    commissionAddress: text().notNull().default(''),
    /** Written from public sources, not yet confirmed with the commission (the demo's requirements). */
    checkWithCommission: boolean().notNull().default(false),
    updatedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.state, t.licenceType] }),
    check('ce_requirements_state_check', oneOf('state', STATE_CODES)),
    check('ce_requirements_type_check', oneOf('licence_type', LICENCE_TYPES)),
    check('ce_requirements_cycle_check', sql`${sql.raw('cycle_months')} between 1 and 120 and ${sql.raw('hours_per_cycle')} > 0`),
  ],
);

/** A licence a member holds: one per state. Its number is the member's own, shown to them only. */
export const memberLicences = pgTable(
  'member_licences',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    state: text({ enum: STATE_CODES }).notNull(),
    licenceType: text({ enum: LICENCE_TYPES }).notNull(),
    licenceNumber: text().notNull().default(''),
    renewsOn: date().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('member_licences_member_state_idx').on(t.memberId, t.state),
    // The reminder job's scan: licences renewing within the first reminder's days.
    index('member_licences_renews_idx').on(t.renewsOn, t.id),
    check('member_licences_type_check', oneOf('licence_type', LICENCE_TYPES)),
    check('member_licences_state_check', oneOf('state', STATE_CODES)),
  ],
);

/** The states where a course counts for CE, with the approval number the commission gave it there. */
export const courseCeApprovals = pgTable(
  'course_ce_approvals',
  {
    courseId: text()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    state: text({ enum: STATE_CODES }).notNull(),
    approvalNumber: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.state] }), check('course_ce_approvals_state_check', oneOf('state', STATE_CODES))],
);

/**
 * An entry of a member's CE ledger for a state: a course completed here (with its certificate, written
 * once per certificate and state) or a course taken elsewhere (with the certificate file the member gave).
 */
export const ceEntries = pgTable(
  'ce_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    state: text({ enum: STATE_CODES }).notNull(),
    source: text({ enum: ['course', 'outside'] }).notNull(),
    courseId: text().references(() => courses.id, { onDelete: 'set null' }),
    certificateId: uuid().references(() => certificates.id, { onDelete: 'set null' }),
    provider: text().notNull(),
    courseName: text().notNull(),
    hours: ceHours().notNull(),
    topic: text({ enum: CE_TOPICS }).notNull(),
    completedOn: date().notNull(),
    approvalNumber: text(),
    /** CE elsewhere: the certificate file, private to the member and the owners (never a public address). */
    certificateKey: text(),
    certificateFilename: text(),
    certificateContentType: text(),
    certificateBytes: integer(),
    createdAt: createdAt(),
  },
  (t) => [
    // A ledger read by state and date, newest first, a page at a time.
    index('ce_entries_member_state_idx').on(t.memberId, t.state, t.completedOn, t.id),
    // A course's credit is written once per certificate and state, whichever request completes it.
    uniqueIndex('ce_entries_certificate_state_idx')
      .on(t.certificateId, t.state)
      .where(sql`certificate_id is not null`),
    check('ce_entries_hours_check', sql`${sql.raw('hours')} > 0`),
    check('ce_entries_topic_check', oneOf('topic', CE_TOPICS)),
    check('ce_entries_source_check', oneOf('source', ['course', 'outside'])),
    check('ce_entries_state_check', oneOf('state', STATE_CODES)),
  ],
);

/**
 * A renewal reminder considered for a member's licence in a state, at a stage (days before renewal):
 * once, whichever process. Kept by member and state, not by licence, so removing the licence and
 * adding it again, or moving its date a little, asks for no new reminder; a renewal date a cycle on
 * (past the first stage's days) starts its own.
 */
export const ceRemindersSent = pgTable(
  'ce_reminders_sent',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    state: text({ enum: STATE_CODES }).notNull(),
    daysBefore: integer().notNull(),
    /** The renewal date the stage was for. */
    renewsOn: date().notNull(),
    /** Whether hours were missing, so the member was told (else the stage passed with nothing to tell). */
    told: boolean().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.state, t.daysBefore, t.renewsOn] })],
);

/**
 * Stored files whose row is gone (a member's CE certificate, with its entry or their account): the
 * daily job deletes each from the file store. Written by the database, so no way of removing the
 * row leaves the file behind.
 */
export const storedFilesReleased = pgTable('stored_files_released', {
  storageKey: text().primaryKey(),
  releasedAt: createdAt(),
});

// ---- Quizzes --------------------------------------------------------------------------------

/** A quiz lesson's rules (common/quizzes.contract.ts): the pass mark, the tries, the wait and the time limit. */
export const quizzes = pgTable(
  'quizzes',
  {
    lessonId: text()
      .primaryKey()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    passPercent: integer().notNull(),
    /** Null: as many tries as the member likes. */
    maxAttempts: integer(),
    waitMinutes: integer().notNull().default(0),
    /** Null: no time limit. */
    timeLimitMinutes: integer(),
    updatedAt: createdAt(),
  },
  () => [
    check('quizzes_pass_check', sql`pass_percent between 1 and 100`),
    check('quizzes_attempts_check', sql`max_attempts is null or max_attempts >= 1`),
    check('quizzes_wait_check', sql`wait_minutes >= 0`),
    check('quizzes_time_check', sql`time_limit_minutes is null or time_limit_minutes >= 1`),
  ],
);

export const quizQuestions = pgTable(
  'quiz_questions',
  {
    id: uuid().primaryKey().defaultRandom(),
    lessonId: text()
      .notNull()
      .references(() => quizzes.lessonId, { onDelete: 'cascade' }),
    position: integer().notNull(),
    kind: text({ enum: QUESTION_KINDS }).notNull(),
    prompt: text().notNull(),
    explanation: text().notNull().default(''),
  },
  (t) => [index('quiz_questions_lesson_idx').on(t.lessonId, t.position), check('quiz_questions_kind_check', oneOf('kind', QUESTION_KINDS))],
);

export const quizOptions = pgTable(
  'quiz_options',
  {
    id: uuid().primaryKey().defaultRandom(),
    questionId: uuid()
      .notNull()
      .references(() => quizQuestions.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    text: text().notNull(),
    correct: boolean().notNull(),
  },
  (t) => [index('quiz_options_question_idx').on(t.questionId, t.position)],
);

/** A question of a try and its answers, in the order this try shows them (shuffled when it starts). */
export interface QuizLayoutEntry {
  question: string;
  options: string[];
}

/**
 * A member's try at a quiz. One try at a time per member and quiz (the partial unique index): two
 * starts sent at once make one try. A try is scored once (`submitted_at` is set by the one update
 * that finds it unset).
 */
export const quizAttempts = pgTable(
  'quiz_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    lessonId: text()
      .notNull()
      .references(() => lessons.id, { onDelete: 'cascade' }),
    layout: jsonb().$type<QuizLayoutEntry[]>().notNull(),
    startedAt: createdAt(),
    /** When the time is up (the server's clock); null without a time limit. */
    deadline: timestamp({ withTimezone: true }),
    submittedAt: timestamp({ withTimezone: true }),
    scorePercent: integer(),
    passed: boolean(),
    /** Sent after the time was up: scored with nothing answered. */
    timedOut: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('quiz_attempts_open_idx')
      .on(t.memberId, t.lessonId)
      .where(sql`submitted_at is null`),
    // A member's tries in order (their data's download), and at one quiz (by its leading column).
    index('quiz_attempts_member_idx').on(t.memberId, t.startedAt, t.id),
    index('quiz_attempts_lesson_idx').on(t.lessonId, t.submittedAt),
  ],
);

/** What a scored try answered to each question. */
export const quizAnswers = pgTable(
  'quiz_answers',
  {
    attemptId: uuid()
      .notNull()
      .references(() => quizAttempts.id, { onDelete: 'cascade' }),
    questionId: uuid()
      .notNull()
      .references(() => quizQuestions.id, { onDelete: 'cascade' }),
    optionIds: uuid().array().notNull(),
    right: boolean().notNull(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] }), index('quiz_answers_question_idx').on(t.questionId)],
);

// One table serves the public episode shape and the admin shape (SPEC 3).
export const podcastEpisodes = pgTable(
  'podcast_episodes',
  {
    id: text().primaryKey(),
    title: text().notNull().default(''),
    description: text().notNull().default(''),
    thumbnail: text().notNull().default(''),
    season: integer().notNull().default(1),
    episode: integer().notNull().default(0),
    duration: text().notNull().default('45:00'),
    spotifyUrl: text().notNull().default(''),
    audioUrl: text().notNull().default(''),
    /** The uploaded artwork, when staff chose one (thumbnail holds its address). */
    thumbnailFileId: uuid().references(() => uploadedFiles.id, { onDelete: 'set null' }),
    publishedAt: createdAt(),
  },
  // Newest first, a page at a time after the last shown (docs/decisions/013).
  (t) => [index('podcast_episodes_newest_idx').on(t.publishedAt, t.id)],
);

export const resources = pgTable(
  'resources',
  {
    id: text().primaryKey(),
    title: text().notNull(),
    description: text().notNull(),
    resourceType: text({ enum: RESOURCE_TYPES }).notNull(),
    tierRequired: text({ enum: TIERS }).notNull(),
    /** An external link; the site cannot protect what it points to. */
    downloadUrl: text(),
    /** A file in the file store, downloadable only by entitled members. */
    fileId: uuid().references(() => uploadedFiles.id, { onDelete: 'set null' }),
    position: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    /** The library's order (position, then title): the staff's list a page at a time, and the library. */
    index('resources_position_idx').on(t.position, t.title, t.id),
    // Which resources offer a stored file (who may open it by its id).
    index('resources_file_idx')
      .on(t.fileId)
      .where(sql`file_id is not null`),
    check('resources_tier_check', oneOf('tier_required', TIERS)),
    check('resources_type_check', oneOf('resource_type', RESOURCE_TYPES)),
  ],
);

export const communityPosts = pgTable(
  'community_posts',
  {
    id: text()
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    /** Null for the demo catalogue's posts, which have a name but no account. */
    authorId: uuid().references(() => members.id, { onDelete: 'cascade' }),
    userName: text().notNull(),
    /** The author's tier when they posted: Silver and Gold posts carry its badge. */
    authorTier: text({ enum: TIERS }),
    /** 'gold': the Gold members' own space. */
    space: text({ enum: COMMUNITY_SPACES }).notNull().default('general'),
    title: text().notNull(),
    content: text().notNull(),
    /** Kept equal to the likes and the visible replies, in the transaction that changes them. */
    likesCount: integer().notNull().default(0),
    repliesCount: integer().notNull().default(0),
    createdAt: createdAt(),
    editedAt: timestamp({ withTimezone: true }),
    pinnedAt: timestamp({ withTimezone: true }),
    lockedAt: timestamp({ withTimezone: true }),
    /** Hidden by staff: gone for everyone but staff. */
    hiddenAt: timestamp({ withTimezone: true }),
    /** The title (weighted first) and text as searched; kept by PostgreSQL. Never selected for display. */
    search: tsvector().generatedAlwaysAs(
      sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')`,
    ),
  },
  (t) => [
    // One index per order a list is read in, each a page at a time (server/community/community.repository.ts).
    index('community_posts_newest_idx')
      .on(t.space, t.createdAt, t.id)
      .where(sql`hidden_at is null and pinned_at is null`),
    index('community_posts_pinned_idx')
      .on(t.space, t.pinnedAt)
      .where(sql`hidden_at is null and pinned_at is not null`),
    index('community_posts_top_idx')
      .on(t.space, t.likesCount, t.repliesCount, t.createdAt, t.id)
      .where(sql`hidden_at is null`),
    index('community_posts_staff_idx').on(t.createdAt, t.id),
    index('community_posts_author_idx').on(t.authorId, t.createdAt),
    index('community_posts_search_idx').using('gin', t.search),
    check('community_posts_space_check', oneOf('space', COMMUNITY_SPACES)),
    check('community_posts_author_tier_check', sql`${sql.raw('author_tier')} is null or ${oneOf('author_tier', TIERS)}`),
  ],
);

export const communityReplies = pgTable(
  'community_replies',
  {
    id: uuid().primaryKey().defaultRandom(),
    postId: text()
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    authorId: uuid().references(() => members.id, { onDelete: 'cascade' }),
    authorName: text().notNull(),
    authorTier: text({ enum: TIERS }),
    /** The author of the discussion it replies to, set by a trigger (migration 0034): "replies to your posts" reads its index. */
    postAuthorId: uuid(),
    body: text().notNull(),
    createdAt: createdAt(),
    editedAt: timestamp({ withTimezone: true }),
    hiddenAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('community_replies_thread_idx')
      .on(t.postId, t.createdAt, t.id)
      .where(sql`hidden_at is null`),
    index('community_replies_post_idx').on(t.postId),
    index('community_replies_author_idx').on(t.authorId, t.createdAt),
    index('community_replies_to_author_idx')
      .on(t.postAuthorId, t.createdAt, t.id)
      .where(sql`hidden_at is null`),
    check('community_replies_author_tier_check', sql`${sql.raw('author_tier')} is null or ${oneOf('author_tier', TIERS)}`),
  ],
);

export const communityLikes = pgTable(
  'community_likes',
  {
    postId: text()
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.memberId] }), index('community_likes_member_idx').on(t.memberId)],
);

/** How many visible discussions each space holds, kept by a trigger with every change (migration 0014). */
export const communityCounts = pgTable(
  'community_counts',
  {
    space: text({ enum: COMMUNITY_SPACES }).primaryKey(),
    discussions: integer().notNull().default(0),
  },
  () => [check('community_counts_space_check', oneOf('space', COMMUNITY_SPACES))],
);

/** A member's report of a post or reply for staff to look at; one per member and item. */
export const communityReports = pgTable(
  'community_reports',
  {
    id: uuid().primaryKey().defaultRandom(),
    postId: text()
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    replyId: uuid().references(() => communityReplies.id, { onDelete: 'cascade' }),
    reporterId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: text(),
  },
  (t) => [
    index('community_reports_queue_idx')
      .on(t.createdAt, t.id)
      .where(sql`resolved_at is null`),
    index('community_reports_post_idx').on(t.postId),
    index('community_reports_reply_idx').on(t.replyId),
  ],
);

export const contentSections = pgTable('content_sections', {
  key: text().primaryKey(),
  data: jsonb().$type<Record<string, string>>().notNull(),
  updatedAt: createdAt(),
  updatedBy: text(),
});

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    ipAddress: text(),
    /** The member who sent it, signed in; and whether their plan (Silver and Gold) makes it a priority. */
    memberId: uuid().references(() => members.id, { onDelete: 'set null' }),
    senderTier: text({ enum: TIERS }),
    priority: boolean().notNull().default(false),
    /** Replied to by staff (the inbox's 'Replied'). */
    handled: boolean().notNull().default(false),
    handledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('contact_messages_created_idx').on(t.createdAt, t.id),
    // The inbox by priority: Silver and Gold members' messages first, newest first within each.
    index('contact_messages_priority_idx').on(t.priority, t.createdAt, t.id),
    // A member's own messages, for their data export.
    index('contact_messages_member_idx').on(t.memberId, t.createdAt, t.id),
  ],
);

export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: uuid().primaryKey().defaultRandom(),
    // The client's filename, kept for display only; storage_key is chosen by the server.
    filename: text().notNull(),
    folder: text({ enum: UPLOAD_FOLDER_VALUES }).notNull(),
    storageKey: text().notNull().unique(),
    contentType: text().notNull(),
    sizeBytes: integer().notNull(),
    /** Who may open it: null for everyone (images on public pages), else members at this tier and above. */
    accessTier: text({ enum: TIERS }),
    /** A public image's smaller copies (WebP), made at upload: their width and storage key. */
    variants: jsonb().$type<{ width: number; key: string }[]>().notNull().default([]),
    uploadedBy: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploaded_files_created_idx').on(t.createdAt, t.id),
    // The File Upload tab's search by any part of a name.
    index('uploaded_files_filename_trgm_idx').using('gin', sql`lower(${t.filename}) gin_trgm_ops`),
    check('uploaded_files_folder_check', oneOf('folder', UPLOAD_FOLDER_VALUES)),
    check('uploaded_files_access_tier_check', sql`${sql.raw('access_tier')} is null or ${oneOf('access_tier', TIERS)}`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    actorEmail: text().notNull(),
    action: text().notNull(),
    target: text().notNull(),
    oldValue: jsonb(),
    newValue: jsonb(),
    /** The member the entry is about, when it is about one: their entries forget them with their account. */
    subjectMemberId: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_target_idx').on(t.target, t.id),
    index('audit_log_subject_idx').on(t.subjectMemberId),
  ],
);

export const ACCOUNT_TOKEN_PURPOSES = ['password_reset', 'email_verification', 'email_change'] as const;

// Single-use links mailed to a member or a staff account: only the token's SHA-256 is stored.
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    purpose: text({ enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    memberId: uuid().references(() => members.id, { onDelete: 'cascade' }),
    staffId: uuid().references(() => staffAccounts.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    /** email_change: the address that becomes the member's once confirmed. */
    newEmail: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('account_tokens_member_idx').on(t.memberId),
    check('account_tokens_purpose_check', oneOf('purpose', ACCOUNT_TOKEN_PURPOSES)),
    check('account_tokens_owner_check', sql`(member_id is null) <> (staff_id is null)`),
  ],
);

/** One-click unsubscribe links, one per message sent, by the SHA-256 of their token; they keep working. */
export const unsubscribeLinks = pgTable(
  'unsubscribe_links',
  {
    tokenHash: text().primaryKey(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('unsubscribe_links_member_idx').on(t.memberId)],
);

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/**
 * The link a queued message carries, minted by the mail worker as it sends the message (the outbox
 * never holds a token that works, docs/decisions/014): a single-use account link, an unsubscribe
 * link, or a password reset for whatever account has the address typed (decided when sent, so a
 * request looks the same for any address).
 */
export type OutboxLinkGrant =
  | {
      kind: 'account-token';
      purpose: (typeof ACCOUNT_TOKEN_PURPOSES)[number];
      memberId?: string;
      staffId?: string;
      /** How long the link works, counted from sending. */
      ttlMs: number;
      newEmail?: string;
    }
  | { kind: 'unsubscribe'; memberId: string }
  | { kind: 'password-reset'; account: 'member' | 'staff' }
  | { kind: 'team-invitation'; invitationId: string; ttlMs: number };

// Every message the site sends, written in the same transaction as the change it reports, then
// delivered by the mail worker (server/mail/mail-worker.ts), with retries, once.
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().notNull(),
    toAddress: text().notNull(),
    replyTo: text(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    /** One-click unsubscribe address (RFC 8058) for mail that is not needed to run the account. */
    unsubscribeUrl: text(),
    /** The link minted at sending; the stored text holds a placeholder in its place, before and after. */
    linkGrant: jsonb().$type<OutboxLinkGrant>(),
    /** A calendar file (.ics) sent with the message: a 1-on-1's confirmation, for the member's calendar. */
    calendar: text(),
    status: text({ enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: createdAt(),
    /** Claimed by a worker until then; another worker takes it over only after. */
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('outbox_messages_due_idx').on(t.status, t.nextAttemptAt),
    // A deleted member's mail goes with them; what was sent is kept OUTBOX_KEPT_DAYS, then purged.
    index('outbox_messages_recipient_idx').on(sql`lower(${t.toAddress})`),
    index('outbox_messages_settled_idx')
      .on(t.createdAt)
      .where(sql`status <> 'pending'`),
    check('outbox_messages_status_check', oneOf('status', OUTBOX_STATUSES)),
  ],
);

// The site's copy of each Stripe subscription, kept by webhooks and by the member's own billing
// actions. Stripe stays the source of truth: every change re-reads the subscription from Stripe.
export const subscriptions = pgTable(
  'subscriptions',
  {
    /** Stripe's subscription id (sub_...). */
    id: text().primaryKey(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    customerId: text().notNull(),
    status: text({ enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** From the price's lookup key; null for a price that is not one of the site's plans. */
    tier: text({ enum: PAID_TIERS }),
    period: text({ enum: BILLING_PERIODS }),
    priceId: text().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    currentPeriodEnd: timestamp({ withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
    /** The money-back guarantee was honoured: everything paid on it was refunded. */
    refundedAt: timestamp({ withTimezone: true }),
    refundedCents: integer(),
    /** The offer it was bought with (its code's discount), if any. */
    offerId: uuid().references(() => offers.id, { onDelete: 'set null' }),
    /** The end of its free trial, while it has one or had one. */
    trialEndsAt: timestamp({ withTimezone: true }),
    /** Since when its payment has failed (past due), kept by a trigger (migration 0054); null once it is paid. */
    pastDueSince: timestamp({ withTimezone: true }),
    /** When it ended while its payment was failing (Stripe's last retry failed), kept by the same trigger. */
    endedUnpaidAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [
    index('subscriptions_member_idx').on(t.memberId),
    // Lifecycle mail's moments (server/lifecycle): trials ending, payments failing, plans ended.
    index('subscriptions_trial_ending_idx')
      .on(t.trialEndsAt)
      .where(sql`status = 'trialing'`),
    index('subscriptions_past_due_idx')
      .on(t.pastDueSince)
      .where(sql`status = 'past_due'`),
    index('subscriptions_ended_unpaid_idx')
      .on(t.endedUnpaidAt)
      .where(sql`ended_unpaid_at is not null`),
    index('subscriptions_cancelled_idx')
      .on(t.endedAt)
      .where(sql`status = 'canceled'`),
    index('subscriptions_offer_idx')
      .on(t.offerId)
      .where(sql`offer_id is not null`),
    check('subscriptions_status_check', oneOf('status', SUBSCRIPTION_STATUSES)),
    check('subscriptions_tier_check', sql`${sql.raw('tier')} is null or ${oneOf('tier', PAID_TIERS)}`),
    check('subscriptions_period_check', sql`${sql.raw('period')} is null or ${oneOf('period', BILLING_PERIODS)}`),
  ],
);

/**
 * An offer code owners make (a Stripe coupon and its promotion code): a discount for some plans, for
 * the first payment, some months or for good, until a date or a number of uses. Ending it stops new
 * uses; members who have it keep it.
 */
export const offers = pgTable(
  'offers',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** What members type, upper case. */
    code: text().notNull(),
    name: text().notNull(),
    percentOff: integer(),
    amountOffCents: integer(),
    duration: text({ enum: OFFER_DURATIONS }).notNull(),
    durationMonths: integer(),
    /** The plans it applies to, as `tier_period` ('silver_monthly'). */
    plans: text().array().notNull(),
    endsAt: timestamp({ withTimezone: true }),
    maxUses: integer(),
    stripeCouponId: text().notNull(),
    stripePromotionCodeId: text().notNull(),
    createdBy: text().notNull(),
    createdAt: createdAt(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('offers_code_idx').on(sql`upper(${t.code})`),
    index('offers_created_idx').on(t.createdAt, t.id),
    check('offers_duration_check', oneOf('duration', OFFER_DURATIONS)),
    check('offers_discount_check', sql`(percent_off is null) <> (amount_off_cents is null)`),
  ],
);

/** The free trial each paid tier starts with (days; none when absent or 0). */
export const planTrials = pgTable(
  'plan_trials',
  {
    tier: text({ enum: PAID_TIERS }).primaryKey(),
    days: integer().notNull(),
    updatedBy: text().notNull(),
    updatedAt: createdAt(),
  },
  () => [check('plan_trials_tier_check', oneOf('tier', PAID_TIERS)), check('plan_trials_days_check', sql`days between 0 and 90`)],
);

/** What each paid invoice brought, by subscription: an offer's revenue is the sum of its subscriptions' payments. */
export const subscriptionPayments = pgTable(
  'subscription_payments',
  {
    invoiceId: text().primaryKey(),
    subscriptionId: text().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    paidAt: createdAt(),
  },
  (t) => [index('subscription_payments_subscription_idx').on(t.subscriptionId)],
);

/**
 * Each change of a subscription's monthly recurring revenue (a yearly plan's a twelfth), written by
 * a trigger on `subscriptions` as the billing mirror follows Stripe's events (migration 0053), and
 * by one on `teams` for a team's seats (migration 0055): the Insights tab's revenue by month, its
 * movements, churn, cohorts and sources. Kept when the account goes (no link to it).
 */
export const mrrChanges = pgTable(
  'mrr_changes',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** The subscriber: the member, or a team's broker. */
    memberId: uuid().notNull(),
    /** Stripe's subscription id; a team's seats are one stream, `team:<team id>`, whatever pays for them. */
    subscriptionId: text().notNull(),
    tier: text({ enum: PAID_TIERS }),
    changedAt: timestamp({ withTimezone: true }).notNull(),
    fromCents: integer().notNull(),
    toCents: integer().notNull(),
    /** The offer the subscription was bought with, as the mirror had it then (no link: the history outlives it). */
    offerId: uuid(),
    /** A team's seats, not a member's own plan. */
    teamId: uuid(),
  },
  (t) => [
    index('mrr_changes_changed_idx').on(t.changedAt),
    index('mrr_changes_member_idx').on(t.memberId, t.changedAt),
    index('mrr_changes_subscription_idx').on(t.subscriptionId, t.changedAt, t.id),
  ],
);

/** Each Stripe event handled, by id: a delivery seen before changes nothing (Stripe retries and repeats). */
export const billingEvents = pgTable('billing_events', {
  id: text().primaryKey(),
  type: text().notNull(),
  receivedAt: createdAt(),
});

/**
 * A counter per kind of data, raised by triggers on every change (migration 0005): 'public' counts
 * changes to anything a visitor can see, so caches of it know when they are out of date.
 */
export const dataVersions = pgTable('data_versions', {
  name: text().primaryKey(),
  version: bigint({ mode: 'number' }).notNull(),
});

// Live group coaching (SPEC 1 "live and group coaching sessions"; Silver's weekly live coaching).
// A series holds what every session of it shares; each session is one meeting, moved or cancelled
// on its own. Weekly series are made into sessions a few weeks ahead (server/coaching/).
export const coachingSeries = pgTable(
  'coaching_series',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    description: text().notNull().default(''),
    /** The staff member who hosts; their name is kept for members if the account goes. */
    hostStaffId: uuid().references(() => staffAccounts.id, { onDelete: 'set null' }),
    hostName: text().notNull(),
    /** The zone the sessions are planned in: a weekly session keeps its local time across daylight saving. */
    timeZone: text().notNull(),
    durationMinutes: integer().notNull(),
    /** The lowest tier that may join. */
    minTier: text({ enum: TIERS }).notNull(),
    capacity: integer().notNull(),
    weekly: boolean().notNull(),
    /** A live coaching session, or an event (a workshop, a meetup), online or in person. */
    kind: text({ enum: COACHING_KINDS }).notNull().default('session'),
    /** Where an in-person event takes place; empty for one held online. */
    address: text().notNull().default(''),
    /** The video meeting's address: shown to entitled members only, from shortly before the start; empty in person. */
    joinUrl: text().notNull(),
    /** A weekly series stopped: no sessions are made after this. */
    endedAt: timestamp({ withTimezone: true }),
    createdBy: text().notNull(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  () => [
    check('coaching_series_min_tier_check', oneOf('min_tier', TIERS)),
    check('coaching_series_duration_check', sql`${sql.raw('duration_minutes')} between 15 and 480`),
    check('coaching_series_capacity_check', sql`${sql.raw('capacity')} between 1 and 10000`),
    check('coaching_series_kind_check', oneOf('kind', COACHING_KINDS)),
    // Members can always reach it: a meeting link, or an address.
    check('coaching_series_place_check', sql`${sql.raw('join_url')} <> '' or ${sql.raw('address')} <> ''`),
  ],
);

export const coachingSessions = pgTable(
  'coaching_sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    seriesId: uuid()
      .notNull()
      .references(() => coachingSeries.id, { onDelete: 'cascade' }),
    /** The week's slot in its series, as first planned: a session is made once per slot, by whichever process. */
    plannedFor: timestamp({ withTimezone: true }).notNull(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    durationMinutes: integer().notNull(),
    cancelledAt: timestamp({ withTimezone: true }),
    /** Raised at each change of time or status: calendars replace the older copy. */
    revision: integer().notNull().default(0),
    /** After the session: its recording (an uploaded video, or a link) and notes. */
    recordingFileId: uuid().references(() => uploadedFiles.id, { onDelete: 'set null' }),
    recordingUrl: text(),
    notes: text().notNull().default(''),
    recordedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('coaching_sessions_slot_idx').on(t.seriesId, t.plannedFor),
    // Upcoming sessions in order of start; the recordings library, latest first.
    index('coaching_sessions_start_idx').on(t.startsAt, t.id),
    index('coaching_sessions_recorded_idx')
      .on(t.startsAt, t.id)
      .where(sql`recorded_at is not null`),
    // Which sessions' recording is a stored file (who may open it by its id).
    index('coaching_sessions_recording_file_idx')
      .on(t.recordingFileId)
      .where(sql`recording_file_id is not null`),
    check('coaching_sessions_duration_check', sql`${sql.raw('duration_minutes')} between 15 and 480`),
  ],
);

/** A coaching session's recording's captions, per language (as a lesson's). */
export const recordingCaptions = pgTable(
  'recording_captions',
  {
    sessionId: uuid()
      .notNull()
      .references(() => coachingSessions.id, { onDelete: 'cascade' }),
    ...captionColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.language] }),
    index('recording_captions_file_idx').on(t.fileId),
    check('recording_captions_language_check', oneOf('language', CAPTION_LANGUAGE_CODES)),
  ],
);

/** A member's place at a session: one per member, at most the series' capacity (checked under the session's lock). */
export const coachingRsvps = pgTable(
  'coaching_rsvps',
  {
    sessionId: uuid()
      .notNull()
      .references(() => coachingSessions.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.memberId] }), index('coaching_rsvps_member_idx').on(t.memberId, t.sessionId)],
);

/**
 * Members waiting for a place in a full session, first come first served: a place given back goes to
 * the first who still may join, under the session's lock.
 */
export const coachingWaitlist = pgTable(
  'coaching_waitlist',
  {
    sessionId: uuid()
      .notNull()
      .references(() => coachingSessions.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.memberId] }),
    index('coaching_waitlist_order_idx').on(t.sessionId, t.createdAt, t.memberId),
    index('coaching_waitlist_member_idx').on(t.memberId),
  ],
);

/** Who opened the join link: attendance. */
export const coachingAttendance = pgTable(
  'coaching_attendance',
  {
    sessionId: uuid()
      .notNull()
      .references(() => coachingSessions.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    joinedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.memberId] })],
);

export const COACHING_REMINDERS = ['day', 'hour'] as const;

/** Each reminder sent: its row is written with the mail, once, whichever process gets there first. */
export const coachingReminders = pgTable(
  'coaching_reminders',
  {
    sessionId: uuid()
      .notNull()
      .references(() => coachingSessions.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    kind: text({ enum: COACHING_REMINDERS }).notNull(),
    /** The session's start the reminder named: a moved session is reminded of again. */
    startsAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.memberId, t.kind, t.startsAt] }),
    check('coaching_reminders_kind_check', oneOf('kind', COACHING_REMINDERS)),
  ],
);

/** A member's private calendar feed: only the SHA-256 of its secret is kept. */
export const calendarFeeds = pgTable('calendar_feeds', {
  memberId: uuid()
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  tokenHash: text().notNull().unique(),
  createdAt: createdAt(),
});

// ---- Gold's monthly 1-on-1 coaching ---------------------------------------------------------

/** When a coach (a staff member) takes 1-on-1s: their zone, slot length and notice. */
export const coachProfiles = pgTable(
  'coach_profiles',
  {
    staffId: uuid()
      .primaryKey()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    timeZone: text().notNull(),
    /** Shown to Gold members as a coach they can book. */
    accepting: boolean().notNull().default(false),
    slotMinutes: integer().notNull(),
    minNoticeHours: integer().notNull(),
    /** The coach's video-meeting address for 1-on-1s, shown to the member who booked. */
    meetingUrl: text().notNull(),
    updatedAt: createdAt(),
  },
  () => [
    check('coach_profiles_slot_check', sql`${sql.raw('slot_minutes')} between 15 and 180`),
    check('coach_profiles_notice_check', sql`${sql.raw('min_notice_hours')} between 0 and 336`),
  ],
);

export const COACH_WINDOW_KINDS = ['open', 'break'] as const;

/** A weekly stretch of a coach's week, in minutes of the day in their zone: open hours, or a break in them. */
export const coachWindows = pgTable(
  'coach_windows',
  {
    id: uuid().primaryKey().defaultRandom(),
    staffId: uuid()
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    weekday: integer().notNull(),
    startsMinute: integer().notNull(),
    endsMinute: integer().notNull(),
    kind: text({ enum: COACH_WINDOW_KINDS }).notNull(),
  },
  (t) => [
    index('coach_windows_staff_idx').on(t.staffId, t.weekday),
    check('coach_windows_kind_check', oneOf('kind', COACH_WINDOW_KINDS)),
    check('coach_windows_weekday_check', sql`${sql.raw('weekday')} between 0 and 6`),
    check('coach_windows_minutes_check', sql`${sql.raw('starts_minute')} >= 0 and ends_minute <= 1440 and starts_minute < ends_minute`),
  ],
);

/** A day the coach takes no 1-on-1s, as a date in their zone. */
export const coachDaysOff = pgTable(
  'coach_days_off',
  {
    staffId: uuid()
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.day] })],
);

/**
 * A Gold member's 1-on-1. The database keeps the promises even when requests race on several
 * processes: a coach's live bookings never overlap (an exclusion constraint on the time range,
 * written in migration 0018, as Drizzle cannot declare one), and a member holds one live booking per
 * calendar month of their zone (the unique index below).
 */
export const oneOnOneBookings = pgTable(
  'one_on_one_bookings',
  {
    id: uuid().primaryKey().defaultRandom(),
    coachId: uuid()
      .notNull()
      .references(() => staffAccounts.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    /** The first day of the booking's calendar month in the member's zone when booked. */
    month: date({ mode: 'string' }).notNull(),
    topic: text().notNull().default(''),
    cancelledAt: timestamp({ withTimezone: true }),
    /** Raised at each move: calendars replace the older copy. */
    revision: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('one_on_one_bookings_member_month_idx')
      .on(t.memberId, t.month)
      .where(sql`cancelled_at is null`),
    index('one_on_one_bookings_coach_idx').on(t.coachId, t.startsAt, t.id),
    index('one_on_one_bookings_member_idx').on(t.memberId, t.startsAt),
    check('one_on_one_bookings_time_check', sql`${sql.raw('ends_at')} > starts_at`),
  ],
);

export const ONE_ON_ONE_CHANGE_KINDS = ['booked', 'moved', 'cancelled'] as const;

/**
 * Each booking, move and cancellation a member made of their 1-on-1s: each mails their coach, so they
 * are counted against ONE_ON_ONE_CHANGES by the member, whatever address the member has since.
 */
export const oneOnOneChanges = pgTable(
  'one_on_one_changes',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    bookingId: uuid().references(() => oneOnOneBookings.id, { onDelete: 'set null' }),
    kind: text({ enum: ONE_ON_ONE_CHANGE_KINDS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('one_on_one_changes_member_idx').on(t.memberId, t.createdAt),
    check('one_on_one_changes_kind_check', oneOf('kind', ONE_ON_ONE_CHANGE_KINDS)),
  ],
);

// ---- Goals ----------------------------------------------------------------------------------

export const GOAL_KINDS = ['count', 'course'] as const;
export const GOAL_PERIOD_VALUES = ['week', 'month', 'by_date'] as const;
export const GOAL_REMINDER_VALUES = ['off', 'daily', 'weekly'] as const;

/** A member's goal: a number to reach per week, per month or by a date, or a course to finish by a date. */
export const goals = pgTable(
  'goals',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    kind: text({ enum: GOAL_KINDS }).notNull(),
    title: text().notNull(),
    unit: text().notNull().default(''),
    target: integer().notNull(),
    period: text({ enum: GOAL_PERIOD_VALUES }).notNull(),
    dueOn: date({ mode: 'string' }),
    courseId: text().references(() => courses.id, { onDelete: 'cascade' }),
    reminder: text({ enum: GOAL_REMINDER_VALUES }).notNull().default('off'),
    /** The hour (0-23) of the member's day, and for weekly reminders the weekday (0 Sunday). */
    reminderHour: integer().notNull().default(9),
    reminderWeekday: integer().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index('goals_member_idx').on(t.memberId, t.createdAt),
    // The reminder run reads only the goals that remind.
    index('goals_reminding_idx')
      .on(t.id)
      .where(sql`reminder <> 'off'`),
    check('goals_kind_check', oneOf('kind', GOAL_KINDS)),
    check('goals_period_check', oneOf('period', GOAL_PERIOD_VALUES)),
    check('goals_reminder_check', oneOf('reminder', GOAL_REMINDER_VALUES)),
    check('goals_hour_check', sql`${sql.raw('reminder_hour')} between 0 and 23 and reminder_weekday between 0 and 6`),
  ],
);

/** Progress logged on a count goal, on a date of the member's zone. */
export const goalEntries = pgTable(
  'goal_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    goalId: uuid()
      .notNull()
      .references(() => goals.id, { onDelete: 'cascade' }),
    amount: integer().notNull(),
    loggedOn: date({ mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('goal_entries_goal_idx').on(t.goalId, t.loggedOn), index('goal_entries_created_idx').on(t.goalId, t.createdAt, t.id)],
);

/** Each goal reminder sent: one per goal and local date, written with the mail, by whichever process gets there first. */
export const goalReminders = pgTable(
  'goal_reminders',
  {
    goalId: uuid()
      .notNull()
      .references(() => goals.id, { onDelete: 'cascade' }),
    localDate: date({ mode: 'string' }).notNull(),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.localDate] })],
);

/** Each weekly tips email sent: one per member and week (its Monday, in the member's zone), by whichever process gets there first. */
export const weeklyTipMails = pgTable(
  'weekly_tip_mails',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    weekOf: date({ mode: 'string' }).notNull(),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.weekOf] })],
);

/**
 * The day (UTC) each member last used the site, kept by a trigger on their sessions (migration 0054):
 * lifecycle mail's nudge to members quiet for some days reads it by day.
 */
export const memberLastSeen = pgTable(
  'member_last_seen',
  {
    memberId: uuid()
      .primaryKey()
      .references(() => members.id, { onDelete: 'cascade' }),
    seenOn: date({ mode: 'string' }).notNull(),
  },
  (t) => [index('member_last_seen_day_idx').on(t.seenOn)],
);

/** Each lifecycle mail the owners keep (server/lifecycle): on or off, its text and its delay in days. */
export const lifecycleAutomations = pgTable(
  'lifecycle_automations',
  {
    key: text({ enum: AUTOMATIONS }).primaryKey(),
    enabled: boolean().notNull().default(true),
    subject: text().notNull(),
    /** In the broadcasts' markup (common/broadcast-markup.ts); {name} is the member's name. */
    body: text().notNull(),
    delayDays: integer().notNull(),
    /** Win-back's offer code, if any (checked against the offers when saved). */
    offerCode: text(),
    updatedAt: createdAt(),
    updatedBy: uuid().references(() => staffAccounts.id, { onDelete: 'set null' }),
  },
  () => [check('lifecycle_automations_key_check', oneOf('key', AUTOMATIONS))],
);

/**
 * Each lifecycle mail sent: once per automation, member and occasion (a subscription, a course, the
 * day a member was last seen; '' for the welcome series), whichever process claims it first.
 */
export const lifecycleMails = pgTable(
  'lifecycle_mails',
  {
    id: uuid().primaryKey().defaultRandom(),
    automation: text({ enum: AUTOMATIONS }).notNull(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    occasion: text().notNull(),
    /** The subscription it is about, for 'what followed' (paying again). */
    subscriptionId: text(),
    sentAt: createdAt(),
    /** The first time a link of the mail was followed (the site's own redirect). */
    openedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('lifecycle_mails_once_idx').on(t.automation, t.memberId, t.occasion),
    index('lifecycle_mails_sent_idx').on(t.sentAt),
    // A member's own, oldest first ('Download my data'; and the account's deletion).
    index('lifecycle_mails_member_sent_idx').on(t.memberId, t.sentAt, t.id),
    check('lifecycle_mails_automation_check', oneOf('automation', AUTOMATIONS)),
  ],
);

/** A mail staff write to the members of chosen tiers; sent by the minute job a batch at a time (migration 0026). */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: uuid().primaryKey().defaultRandom(),
    subject: text().notNull(),
    body: text().notNull(),
    audience: text({ enum: TIERS }).array().notNull(),
    /** Narrows the audience: members enrolled in this course, members not seen for this many days. */
    audienceCourseId: text().references(() => courses.id, { onDelete: 'set null' }),
    /** Only the agents holding a seat in this team (null: any). */
    audienceTeamId: uuid().references((): AnyPgColumn => teams.id, { onDelete: 'set null' }),
    inactiveDays: integer(),
    status: text({ enum: BROADCAST_STATUSES }).notNull().default('draft'),
    sendAt: timestamp({ withTimezone: true }),
    /** The last member (by id) the sending reached: a restart goes on from there. */
    reachedMemberId: uuid(),
    sentCount: integer().notNull().default(0),
    /** Kept by a trigger on the outbox as the mail worker delivers or gives up (migration 0027). */
    deliveredCount: integer().notNull().default(0),
    failedCount: integer().notNull().default(0),
    /** Clicks on its links, counted by the site's own redirect (no one's identity kept). */
    clicks: integer().notNull().default(0),
    /** Members who unsubscribed with this as the last broadcast they got (a trigger on members, migration 0028). */
    unsubscribedCount: integer().notNull().default(0),
    sentAt: timestamp({ withTimezone: true }),
    createdBy: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('broadcasts_status_check', oneOf('status', BROADCAST_STATUSES)),
    index('broadcasts_created_idx').on(t.createdAt, t.id),
    // The members' list of past broadcasts, latest first.
    index('broadcasts_sent_idx')
      .on(t.sentAt, t.id)
      .where(sql`status = 'sent'`),
    // What the minute job picks up.
    index('broadcasts_due_idx')
      .on(t.sendAt)
      .where(sql`status in ('scheduled', 'sending')`),
  ],
);

/** Each member a broadcast was mailed to: written with the mail, so a member gets it once whatever the processes. */
export const broadcastDeliveries = pgTable(
  'broadcast_deliveries',
  {
    broadcastId: uuid()
      .notNull()
      .references(() => broadcasts.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** The member's copy in the outbox: its delivery moves the broadcast's counts. */
    outboxMessageId: uuid().references(() => outboxMessages.id, { onDelete: 'set null' }),
    sentAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.memberId] }),
    index('broadcast_deliveries_member_idx').on(t.memberId),
    index('broadcast_deliveries_outbox_idx').on(t.outboxMessageId),
  ],
);

// The notifications centre (common/notifications.contract.ts). A notification is written once per
// event and member (their unique group key: `reply:<id>`, `like:<post id>`...), in the transaction of
// the event; likes of one discussion are one notification counting them. What a member may still
// read is decided when it is read: `requiredTier` is checked against their tier then.
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    groupKey: text().notNull(),
    title: text().notNull(),
    body: text().notNull().default(''),
    url: text().notNull(),
    /** Likes gathered since the member last read it. */
    actorCount: integer().notNull().default(1),
    /** False when the member chose not to see this kind on the site (it is kept so the event counts once). */
    shown: boolean().notNull().default(true),
    /** The lowest tier that may read what it is about (the Gold Lounge, a Gold session...). */
    requiredTier: text({ enum: TIERS }).notNull().default('free'),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    readAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_member_group_idx').on(t.memberId, t.groupKey),
    // The member's list, latest first, a page at a time; the bell's count of unread ones.
    index('notifications_member_recent_idx')
      .on(t.memberId, t.updatedAt, t.id)
      .where(sql`shown`),
    index('notifications_member_unread_idx')
      .on(t.memberId, t.kind, t.updatedAt)
      .where(sql`read_at is null and shown`),
    check('notifications_kind_check', oneOf('kind', NOTIFICATION_KINDS)),
    check('notifications_required_tier_check', oneOf('required_tier', TIERS)),
  ],
);

/** A member's choice of channels for one kind; a kind without a row has its defaults. */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    site: boolean().notNull(),
    email: boolean().notNull(),
    push: boolean().notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.kind] }), check('notification_preferences_kind_check', oneOf('kind', NOTIFICATION_KINDS))],
);

/** A member's community digest choice ('off' sends each reply and mention as it happens). */
export const notificationDigests = pgTable(
  'notification_digests',
  {
    memberId: uuid()
      .primaryKey()
      .references(() => members.id, { onDelete: 'cascade' }),
    digest: text({ enum: DIGESTS }).notNull(),
    /** The last digest period sent ('2026-11-26', or the Monday of a week), claimed with its mail. */
    lastPeriod: text(),
  },
  (t) => [
    check('notification_digests_digest_check', oneOf('digest', DIGESTS)),
    index('notification_digests_due_idx')
      .on(t.digest, t.memberId)
      .where(sql`digest <> 'off'`),
  ],
);

/** A browser (a device) that takes the member's push notifications. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    endpoint: text().notNull(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text(),
    // The session the device subscribed in: signed out there (or the session ended), it gets no more
    // pushes, and it goes with the session. Null for devices subscribed before this was kept.
    sessionId: uuid().references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_member_idx').on(t.memberId),
    index('push_subscriptions_session_idx').on(t.sessionId),
  ],
);

/**
 * A push to send to one device, written with its notification and delivered by the push worker
 * (server/notifications/push-worker.ts), claimed with SKIP LOCKED, once, with retries.
 */
export const pushMessages = pgTable(
  'push_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    subscriptionId: uuid()
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    notificationId: uuid().references(() => notifications.id, { onDelete: 'cascade' }),
    /** What the device shows: title, body, the path it opens, a tag that replaces an older one. */
    payload: jsonb().$type<{ title: string; body: string; url: string; tag: string }>().notNull(),
    requiredTier: text({ enum: TIERS }).notNull().default('free'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: createdAt(),
    lockedUntil: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('push_messages_due_idx').on(t.nextAttemptAt), check('push_messages_required_tier_check', oneOf('required_tier', TIERS))],
);

/**
 * News for every member a tier reaches (a new session, recording or course): one row, turned into
 * each member's notification by the minute job a batch at a time, after `reachedMemberId`, once.
 */
export const notificationFanouts = pgTable(
  'notification_fanouts',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    groupKey: text().notNull(),
    title: text().notNull(),
    body: text().notNull().default(''),
    url: text().notNull(),
    requiredTier: text({ enum: TIERS }).notNull(),
    reachedMemberId: uuid(),
    doneAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_fanouts_group_idx').on(t.groupKey),
    index('notification_fanouts_due_idx')
      .on(t.createdAt)
      .where(sql`done_at is null`),
    check('notification_fanouts_kind_check', oneOf('kind', NOTIFICATION_KINDS)),
  ],
);

// Team plans (server/teams/): a broker buys seats at a tier and period (a Stripe subscription with a
// quantity), invites agents by email, and each agent who holds a seat has the team's tier while the
// team's subscription gives access. A member has the higher of their own tier and their team's.
export const teams = pgTable(
  'teams',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    /** The member who buys and manages the seats. */
    brokerId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tier: text({ enum: PAID_TIERS }).notNull(),
    period: text({ enum: BILLING_PERIODS }).notNull(),
    seats: integer().notNull(),
    pricePerSeatCents: integer().notNull(),
    /** Stripe's subscription, once checkout began; its status is mirrored below by webhooks. */
    stripeSubscriptionId: text(),
    status: text({ enum: SUBSCRIPTION_STATUSES }).notNull().default('incomplete'),
    currentPeriodEnd: timestamp({ withTimezone: true }),
    /** The owner's offer this team was bought with (one team per offer). */
    quoteId: uuid().references((): AnyPgColumn => teamQuotes.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('teams_subscription_idx').on(t.stripeSubscriptionId),
    uniqueIndex('teams_quote_idx').on(t.quoteId),
    index('teams_broker_idx').on(t.brokerId, t.createdAt),
    check('teams_tier_check', oneOf('tier', PAID_TIERS)),
    check('teams_period_check', oneOf('period', BILLING_PERIODS)),
    check('teams_status_check', oneOf('status', SUBSCRIPTION_STATUSES)),
    check('teams_seats_check', sql`seats >= 1`),
  ],
);

/**
 * A team offer an owner made to one brokerage, answering its contact message: a tier and period at a
 * price per seat, for the address that wrote, until a date. Bought once (a team holds its id).
 */
export const teamQuotes = pgTable(
  'team_quotes',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    tier: text({ enum: PAID_TIERS }).notNull(),
    period: text({ enum: BILLING_PERIODS }).notNull(),
    pricePerSeatCents: integer().notNull(),
    contactMessageId: uuid().references(() => contactMessages.id, { onDelete: 'set null' }),
    createdBy: text().notNull(),
    /** Who made it, by account: an owner's offers a day are counted by it, whatever their address since. */
    createdById: uuid().references(() => staffAccounts.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('team_quotes_message_idx').on(t.contactMessageId),
    index('team_quotes_staff_idx').on(t.createdById, t.createdAt),
    check('team_quotes_tier_check', oneOf('tier', PAID_TIERS)),
    check('team_quotes_period_check', oneOf('period', BILLING_PERIODS)),
    check('team_quotes_price_check', sql`price_per_seat_cents >= 100`),
  ],
);

/** An agent holding one of a team's seats; a member holds a seat in one team at most. */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    memberId: uuid()
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    joinedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.memberId] }), uniqueIndex('team_members_member_idx').on(t.memberId)],
);

/** An invitation to a team's seat, to an email address; its link's token is minted when mailed and kept as a hash. */
export const teamInvitations = pgTable(
  'team_invitations',
  {
    id: uuid().primaryKey().defaultRandom(),
    teamId: uuid()
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    tokenHash: text(),
    expiresAt: timestamp({ withTimezone: true }),
    acceptedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('team_invitations_token_idx').on(t.tokenHash), index('team_invitations_team_idx').on(t.teamId, t.createdAt, t.id)],
);

/** What owners charge per seat of a team plan, by tier and period (the plan's own price until set). */
export const teamPrices = pgTable(
  'team_prices',
  {
    tier: text({ enum: PAID_TIERS }).notNull(),
    period: text({ enum: BILLING_PERIODS }).notNull(),
    priceCents: integer().notNull(),
    updatedBy: text().notNull(),
    updatedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tier, t.period] }), check('team_prices_price_check', sql`price_cents >= 100`)],
);
