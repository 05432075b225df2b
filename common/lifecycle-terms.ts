// Lifecycle mail (issue 34, part 2): the mails the site sends by itself at a moment of a member's life
// with the business, each on or off, its text and its delay kept by owners. Zod-free: the admin tab
// and the database schema read these.

export const AUTOMATIONS = [
  'welcome',
  'welcome-day-2',
  'welcome-day-7',
  'trial-ending',
  'payment-failed',
  'plan-ended',
  'win-back',
  'inactive',
  'course-finished',
] as const;
export type AutomationKey = (typeof AUTOMATIONS)[number];

/** What each is called, and what its delay (in days) counts from. */
export const AUTOMATION_INFO: Record<AutomationKey, { label: string; delay: string }> = {
  welcome: { label: 'Welcome: what to start with', delay: 'days after sign-up' },
  'welcome-day-2': { label: 'Welcome: the community', delay: 'days after sign-up' },
  'welcome-day-7': { label: 'Welcome: live coaching', delay: 'days after sign-up' },
  'trial-ending': { label: 'Trial ending', delay: 'days before the trial ends' },
  'payment-failed': { label: 'Failed payment: update the card', delay: 'days after a payment failed, while Stripe retries' },
  'plan-ended': { label: 'Plan ended after the last retry', delay: 'days after the plan ended unpaid' },
  'win-back': { label: 'Win-back after a cancellation', delay: 'days after the plan ended' },
  inactive: { label: 'Nudge to an inactive member', delay: 'days without a visit' },
  'course-finished': { label: 'Course finished: certificate and what next', delay: 'days after the certificate' },
};

export const LIFECYCLE = {
  /** Delays, in days. */
  maxDelayDays: 90,
  /** A moment older than this is let go: switching a mail on never writes to everyone who ever qualified. */
  catchUpDays: 2,
  /** What the staff's figures count: mails sent in the last 90 days, and what followed within 14 days. */
  statsDays: 90,
  followedWithinDays: 14,
  /**
   * How long a sent mail's claim is kept: past the longest delay and the catch-up window (an owner
   * lengthening a delay never makes an occasion already mailed due again) and the figures' 90 days.
   */
  keptDays: 180,
  subjectMax: 150,
  bodyMax: 10_000,
  /** Members a process mails per automation and batch, and batches per minute. */
  batch: 100,
  batchesPerRun: 10,
} as const;
