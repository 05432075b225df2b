import { z } from 'zod';
import { requiredText, slugParam, uuidParam } from './fields.ts';
import { GOALS, TEXT_MAX } from './limits.ts';
import type { Viewer } from './viewer.ts';

// A member's goals: a number to reach each week, each month or by a date ("20 calls a week"), or a
// course to finish by a date. Progress is logged from the dashboard (course goals move by themselves
// as lessons are completed), with a streak and reminders by email at an hour of the member's day.

export const GOAL_NOT_FOUND = 'Goal not found';
export const TOO_MANY_GOALS = `You can keep up to ${GOALS.maxActive} goals. Remove one to add another.`;

const GOAL_PERIODS = ['week', 'month', 'by_date'] as const;
const GOAL_REMINDERS = ['off', 'daily', 'weekly'] as const;

const localDate = z.iso.date('Due date must be a date (YYYY-MM-DD)');
const hour = z.coerce.number({ error: 'Hour must be a number' }).int().min(0, 'Hour must be 0 to 23').max(23, 'Hour must be 0 to 23');
const weekday = z.coerce
  .number({ error: 'Weekday must be a number' })
  .int()
  .min(0, 'Weekday must be 0 (Sunday) to 6')
  .max(6, 'Weekday must be 0 (Sunday) to 6');

/** When to be reminded: daily or weekly (on a weekday), at an hour of the member's day. */
const Reminder = z.object({
  reminder: z.enum(GOAL_REMINDERS, { error: 'Reminder must be off, daily or weekly' }).default('off'),
  reminder_hour: hour.default(9),
  reminder_weekday: weekday.default(1),
});

/** A number to reach: "20 calls a week", "2 closings this month", "10 listings by 2027-03-31". */
const CountGoalInput = z
  .object({
    kind: z.literal('count'),
    title: requiredText('Goal', TEXT_MAX.goalTitle),
    target: z.coerce
      .number({ error: 'Target must be a number' })
      .int('Target must be a whole number')
      .min(1, 'Target must be at least 1')
      .max(GOALS.maxTarget, `Target must be at most ${GOALS.maxTarget}`),
    unit: requiredText('Unit', TEXT_MAX.goalUnit),
    period: z.enum(GOAL_PERIODS, { error: 'Period must be week, month or by_date' }),
    due_on: localDate.nullable().default(null),
  })
  .extend(Reminder.shape)
  .refine((goal) => goal.period !== 'by_date' || goal.due_on !== null, { message: 'Choose the date to reach it by', path: ['due_on'] });

/** A course to finish by a date: it moves as the member completes the course's lessons. */
const CourseGoalInput = z
  .object({
    kind: z.literal('course'),
    course_id: slugParam('Course'),
    due_on: localDate,
  })
  .extend(Reminder.shape);

export const GoalInput = z.discriminatedUnion('kind', [CountGoalInput, CourseGoalInput], { error: 'Goal kind must be count or course' });
export type GoalInput = z.infer<typeof GoalInput>;

export const ProgressInput = z.object({
  amount: z.coerce
    .number({ error: 'Amount must be a number' })
    .int('Amount must be a whole number')
    .min(-GOALS.maxLogged, `Amount must be at least -${GOALS.maxLogged}`)
    .max(GOALS.maxLogged, `Amount must be at most ${GOALS.maxLogged}`)
    .refine((amount) => amount !== 0, 'Amount must not be 0'),
});
export type ProgressInput = z.infer<typeof ProgressInput>;

export const ReminderInput = Reminder;
export type ReminderInput = z.infer<typeof ReminderInput>;

export const GoalParams = z.object({ id: uuidParam('Goal') });

/** A goal with where the member stands in its current period. */
export const GoalView = z.object({
  id: z.string(),
  kind: z.enum(['count', 'course']),
  title: z.string(),
  unit: z.string(),
  target: z.number(),
  period: z.enum(GOAL_PERIODS),
  due_on: z.string().nullable(),
  course_id: z.string().nullable(),
  /** How far along this period (this week, this month, or in all for a date or a course). */
  done: z.number(),
  percent: z.number(),
  reached: z.boolean(),
  /** "this week", "this month", "by Mar 31, 2027" */
  period_label: z.string(),
  /** Days in a row, up to today, with progress logged (or lessons completed, for a course). */
  streak_days: z.number(),
  reminder: z.enum(GOAL_REMINDERS),
  reminder_hour: z.number(),
  reminder_weekday: z.number(),
});
export type GoalView = z.infer<typeof GoalView>;
export const GoalList = z.array(GoalView);

export interface GoalsService {
  /** The member's goals, oldest first (there are at most GOALS.maxActive). */
  list(viewer: Viewer): Promise<GoalView[]>;
  create(viewer: Viewer, input: GoalInput): Promise<GoalView>;
  setReminder(viewer: Viewer, goalId: string, input: ReminderInput): Promise<GoalView>;
  remove(viewer: Viewer, goalId: string): Promise<void>;
  logProgress(viewer: Viewer, goalId: string, input: ProgressInput): Promise<GoalView>;
}
