// Every piece of work the server runs by itself, in one place (issue 34, part 3): when each runs, and
// how it happens once however many processes run the site. One runner runs them all
// (`scheduleRepeating` in server/background-work.ts, `runSteps` for the minute's steps), and /metrics
// reports each one's last run, its duration and its failures (`job_*`). Mail and push are delivered
// by their own queue workers (server/mail/mail-worker.ts, server/notifications/push-worker.ts), which
// claim each message with `FOR UPDATE SKIP LOCKED` and a lease.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A job: its first run after the start, how often it runs, and what makes it happen once. */
interface ScheduledJob {
  firstAfterMs: number;
  everyMs: number;
  /** In one process at a time (a database lock), the others skipping that turn. */
  alone: boolean;
  once: string;
}

export const SCHEDULE = {
  'minute jobs': {
    firstAfterMs: 5_000,
    everyMs: MINUTE_MS,
    alone: false,
    once: 'in every process: each step below claims what it does, row by row, in the transaction that does it',
  },
  'session-purge': {
    firstAfterMs: 1_000,
    everyMs: HOUR_MS,
    alone: true,
    once: 'one process at a time; deleting sessions expired long ago twice deletes nothing more',
  },
  'data-retention': {
    firstAfterMs: MINUTE_MS,
    everyMs: DAY_MS,
    alone: true,
    once: 'one process at a time: lapsed members, mail older than 30 days, counted changes, released files, lifecycle mail claims after 180 days',
  },
  'tier reconciliation': {
    firstAfterMs: 10 * MINUTE_MS,
    everyMs: DAY_MS,
    alone: false,
    once: 'one process at a time (it takes its own lock); a corrected tier is found right by the next',
  },
} as const satisfies Record<string, ScheduledJob>;

export type JobName = keyof typeof SCHEDULE;

/** The minute's steps, in the order they run, and the claim that makes each happen once. */
export const MINUTE_STEPS = {
  'weekly sessions': "a weekly series' sessions planned 12 weeks ahead; a session per series and start is unique",
  'coaching reminders': 'claimed per session, member and kind (a day, an hour before) with the mail',
  'goal reminders': "claimed per goal and the member's local date with the notification",
  'weekly tips': 'claimed per member and week with the mail',
  'early access': 'one UPDATE opens the course to its tier; another process finds nothing left to open',
  'lesson openings': 'claimed per member and lesson with the notification',
  'renewal reminders': 'claimed per member, state, stage and renewal date with the notification',
  broadcasts: 'the broadcast held FOR UPDATE SKIP LOCKED, each copy claimed per member',
  'course news': 'each piece of news held FOR UPDATE SKIP LOCKED while it is handed out',
  'community digests': 'claimed per member and period with the mail',
  'lifecycle mail': 'claimed per automation, member and occasion (a unique index) with the mail',
} as const;

export type MinuteStep = keyof typeof MINUTE_STEPS;
