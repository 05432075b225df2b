import { badRequest, conflict, notFound } from '../../common/errors.ts';
import { GOAL_NOT_FOUND, TOO_MANY_GOALS, type GoalView, type GoalsService } from '../../common/goals.contract.ts';
import { GOALS } from '../../common/limits.ts';
import { mayStudyCourse, requireMember } from '../../common/policies.ts';
import { addDays, DEFAULT_TIME_ZONE, localDateOf, weekdayOfDate } from '../../common/time-zones.ts';
import type { SignedInMember } from '../../common/viewer.ts';
import type { DataAccess, Repositories } from '../repositories.ts';
import type { GoalRow } from './goals.repository.ts';

// A member's goals and where they stand. Periods are the member's own: the week starts on Monday
// and the month on the 1st in their time zone; the streak counts days in a row with progress.

const COURSE_GOALS_MOVE_BY_THEMSELVES = 'A course goal moves by itself as you complete the course’s lessons.';
const COURSE_NOT_OPEN = 'Choose a published course your plan includes.';

/** The dates a member's periods start, in their zone, today. */
export function periodsOf(now: Date, zone: string) {
  const today = localDateOf(now, zone);
  return {
    today,
    week: addDays(today, -((weekdayOfDate(today) + 6) % 7)),
    month: `${today.slice(0, 7)}-01`,
    streakFrom: addDays(today, -GOALS.streakDaysRead),
  };
}

/** Days in a row with progress, ending today (or yesterday, while today has none yet). */
export function streakOf(days: readonly string[], today: string): number {
  const logged = new Set(days);
  let day = logged.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (logged.has(day) && streak < GOALS.streakDaysRead) {
    streak++;
    day = addDays(day, -1);
  }
  return streak;
}

const dueLabel = (date: string) =>
  `by ${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`))}`;

function view(goal: GoalRow, done: number, target: number, streak: number): GoalView {
  return {
    id: goal.id,
    kind: goal.kind,
    title: goal.title,
    unit: goal.unit,
    target,
    period: goal.period,
    due_on: goal.dueOn,
    course_id: goal.courseId,
    done,
    percent: target > 0 ? Math.max(0, Math.min(100, Math.round((done * 100) / target))) : 0,
    reached: target > 0 && done >= target,
    period_label: goal.period === 'week' ? 'this week' : goal.period === 'month' ? 'this month' : dueLabel(goal.dueOn ?? ''),
    streak_days: streak,
    reminder: goal.reminder,
    reminder_hour: goal.reminderHour,
    reminder_weekday: goal.reminderWeekday,
  };
}

/** Where each of these goals of one member stands now. */
export async function goalViews(
  data: Repositories,
  rows: GoalRow[],
  memberId: string,
  zone: string,
  now = new Date(),
): Promise<GoalView[]> {
  const periods = periodsOf(now, zone);
  const counted = rows.filter((goal) => goal.kind === 'count');
  const courseIds = [...new Set(rows.flatMap((goal) => (goal.courseId ? [goal.courseId] : [])))];
  const [counts, courses, lessonTotals] = await Promise.all([
    data.goals.countProgress(
      counted.map((goal) => goal.id),
      periods,
    ),
    data.goals.courseProgress(memberId, courseIds, zone, periods.streakFrom),
    Promise.all(courseIds.map(async (id) => [id, await data.learning.lessonCount(id)] as const)).then((pairs) => new Map(pairs)),
  ]);
  return rows.map((goal) => {
    if (goal.kind === 'course') {
      const courseId = goal.courseId ?? '';
      return view(
        goal,
        courses.done.get(courseId) ?? 0,
        lessonTotals.get(courseId) ?? 0,
        streakOf(courses.days.get(courseId) ?? [], periods.today),
      );
    }
    const sums = counts.sums.get(goal.id) ?? { week: 0, month: 0, total: 0 };
    const done = goal.period === 'week' ? sums.week : goal.period === 'month' ? sums.month : sums.total;
    return view(goal, done, goal.target, streakOf(counts.days.get(goal.id) ?? [], periods.today));
  });
}

export function createGoalsService(deps: { data: DataAccess }): GoalsService {
  const { data } = deps;
  const zoneOf = (member: SignedInMember) => member.timeZone ?? DEFAULT_TIME_ZONE;

  async function ownGoal(member: SignedInMember, goalId: string): Promise<GoalRow> {
    const goal = await data.goals.find(goalId);
    if (!goal || goal.memberId !== member.id) throw notFound(GOAL_NOT_FOUND);
    return goal;
  }

  async function viewOf(member: SignedInMember, goalId: string): Promise<GoalView> {
    const goal = (await data.goals.find(goalId))!;
    return (await goalViews(data, [goal], member.id, zoneOf(member)))[0]!;
  }

  return {
    async list(viewer) {
      const member = requireMember(viewer);
      return goalViews(data, await data.goals.listOf(member.id, GOALS.maxActive), member.id, zoneOf(member));
    },

    async create(viewer, input) {
      const member = requireMember(viewer);
      if ((await data.goals.countOf(member.id)) >= GOALS.maxActive) throw conflict(TOO_MANY_GOALS);
      const reminder = { reminder: input.reminder, reminderHour: input.reminder_hour, reminderWeekday: input.reminder_weekday };
      let goalId: string;
      if (input.kind === 'course') {
        const course = await data.courses.findById(input.course_id);
        if (!course || course.status !== 'published' || !mayStudyCourse(viewer, course)) throw badRequest(COURSE_NOT_OPEN, 'course_id');
        goalId = await data.goals.insert({
          memberId: member.id,
          kind: 'course',
          title: `Finish ${course.title}`,
          unit: 'lessons',
          target: 0,
          period: 'by_date',
          dueOn: input.due_on,
          courseId: course.id,
          ...reminder,
        });
      } else {
        goalId = await data.goals.insert({
          memberId: member.id,
          kind: 'count',
          title: input.title,
          unit: input.unit,
          target: input.target,
          period: input.period,
          dueOn: input.period === 'by_date' ? input.due_on : null,
          ...reminder,
        });
      }
      return viewOf(member, goalId);
    },

    async setReminder(viewer, goalId, input) {
      const member = requireMember(viewer);
      await ownGoal(member, goalId);
      await data.goals.setReminder(goalId, {
        reminder: input.reminder,
        reminderHour: input.reminder_hour,
        reminderWeekday: input.reminder_weekday,
      });
      return viewOf(member, goalId);
    },

    async remove(viewer, goalId) {
      const member = requireMember(viewer);
      await ownGoal(member, goalId);
      await data.goals.remove(goalId);
    },

    async logProgress(viewer, goalId, input) {
      const member = requireMember(viewer);
      const goal = await ownGoal(member, goalId);
      if (goal.kind === 'course') throw conflict(COURSE_GOALS_MOVE_BY_THEMSELVES);
      await data.goals.addEntry(goalId, input.amount, localDateOf(new Date(), zoneOf(member)));
      return viewOf(member, goalId);
    },
  };
}
