import { useFetcher } from 'react-router';
import { z } from 'zod';
import { GoalInput, ProgressInput, ReminderInput, type GoalView } from '../../../common/goals.contract.ts';
import { GOALS, TEXT_MAX } from '../../../common/limits.ts';
import { mayStudyCourse } from '../../../common/policies.ts';
import { addDays, DEFAULT_TIME_ZONE, localDateOf } from '../../../common/time-zones.ts';
import { GoalCard } from '../../components/goals/goal-card.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmedForm } from '../../components/ui/confirmed-form.tsx';
import { Input, Select } from '../../components/ui/field.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, orFallback, pageServices } from '../../lib/page-context.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { Route } from './+types/goals';

// A member's goals: set one (a number a week, a month or by a date, or a course by a date), log
// progress, choose reminders, remove. The dashboard shows the same cards and logs through here.

export const meta = () => pageMeta({ title: 'My Goals', description: 'Set goals, log your progress and keep your streak.' });

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer, member } = memberPageServices(context);
  const [goals, courses] = await Promise.all([services.goals.list(viewer), orFallback(services.courses.list(), [], 'the courses')]);
  return {
    goals,
    // Only the courses the member's plan includes can be a goal.
    courses: courses.filter((course) => mayStudyCourse(viewer, course)).map((course) => ({ value: course.id, label: course.title })),
    today: localDateOf(new Date(), member.timeZone ?? DEFAULT_TIME_ZONE),
  };
}

const GoalId = z.object({ goalId: z.uuid('Choose a goal') });
const HOURS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: new Intl.DateTimeFormat('en-US', { hour: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 1, hour))),
}));
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'].map((label, day) => ({
  value: String(day),
  label,
}));

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = pageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const values = Object.fromEntries([...form].filter(([, value]) => typeof value === 'string')) as Record<string, string>;
  const intent = values.intent;
  if (intent === 'create') {
    const input = GoalInput.safeParse({ ...values, due_on: values.due_on || null });
    if (!input.success) return refusedBy(input.error);
    const done = await attempt(() => services.goals.create(viewer, input.data));
    return done.ok ? { ok: true as const, message: 'Goal set. Log your progress here or on your dashboard.' } : done.refusal;
  }
  const goal = GoalId.safeParse(values);
  if (!goal.success) return refusedBy(goal.error);
  if (intent === 'log') {
    const input = ProgressInput.safeParse(values);
    if (!input.success) return refusedBy(input.error);
    const { amount } = input.data;
    const done = await attempt(() => services.goals.logProgress(viewer, goal.data.goalId, input.data));
    if (!done.ok) return done.refusal;
    const unit = done.value.kind === 'count' ? done.value.unit : 'lessons';
    return {
      ok: true as const,
      message: `Logged ${amount} ${unit}: ${done.value.done} of ${done.value.target} ${done.value.period_label}.`,
    };
  }
  if (intent === 'reminder') {
    const input = ReminderInput.safeParse(values);
    if (!input.success) return refusedBy(input.error);
    const done = await attempt(() => services.goals.setReminder(viewer, goal.data.goalId, input.data));
    return done.ok ? { ok: true as const, message: 'Reminder saved.' } : done.refusal;
  }
  if (intent === 'remove') {
    const done = await attempt(() => services.goals.remove(viewer, goal.data.goalId));
    return done.ok ? { ok: true as const, message: 'Goal removed.' } : done.refusal;
  }
  return formErrors('Choose what to do.');
}

const TAP = 'min-h-11';

function ReminderForm({ goal }: { goal: GoalView }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <fetcher.Form method="post" className="mt-3 grid grid-cols-2 items-end gap-2 sm:grid-cols-4">
      <input type="hidden" name="intent" value="reminder" />
      <input type="hidden" name="goalId" value={goal.id} />
      <Select
        compact
        label="Remind me"
        name="reminder"
        defaultValue={goal.reminder}
        options={[
          { value: 'off', label: 'Never' },
          { value: 'daily', label: 'Every day' },
          { value: 'weekly', label: 'Every week' },
        ]}
      />
      <Select compact label="at" name="reminder_hour" defaultValue={String(goal.reminder_hour)} options={HOURS} />
      <Select compact label="on (weekly)" name="reminder_weekday" defaultValue={String(goal.reminder_weekday)} options={WEEKDAYS} />
      <Button type="submit" size="sm" variant="outline" className={TAP} disabled={fetcher.state !== 'idle'}>
        Save reminder
      </Button>
    </fetcher.Form>
  );
}

function RemoveGoal({ goal }: { goal: GoalView }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <ConfirmedForm fetcher={fetcher} question={`Remove the goal '${goal.title}'?`} fields={{ intent: 'remove', goalId: goal.id }}>
      <Button type="submit" size="sm" variant="ghost" className={`${TAP} mt-2`}>
        Remove goal
      </Button>
    </ConfirmedForm>
  );
}

function NewGoal({ courses, today, full }: { courses: { value: string; label: string }[]; today: string; full: boolean }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  const busy = fetcher.state !== 'idle';
  return (
    <Card as="section" className="space-y-6 p-5" aria-labelledby="new-goal">
      <h2 id="new-goal" className="text-lg font-bold text-gray-900">
        Set a goal
      </h2>
      {full && <p className="text-sm text-gray-700">You have {GOALS.maxActive} goals: remove one to add another.</p>}
      <fetcher.Form method="post" className="space-y-3" key={fetcher.data?.ok ? 'sent' : 'open'}>
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="kind" value="count" />
        <h3 className="font-semibold text-gray-900">A number to reach</h3>
        <Input label="Goal" name="title" placeholder="Calls to past clients" maxLength={TEXT_MAX.goalTitle} required error={errors.title} />
        <div className="grid grid-cols-2 gap-2">
          <Input
            label="Target"
            name="target"
            type="number"
            min={1}
            max={GOALS.maxTarget}
            defaultValue={GOALS.suggestedTarget}
            required
            error={errors.target}
          />
          <Input label="Unit" name="unit" placeholder="calls" maxLength={TEXT_MAX.goalUnit} required error={errors.unit} />
        </div>
        <div className="grid grid-cols-2 gap-2">
          <Select
            label="Each"
            name="period"
            defaultValue="week"
            options={[
              { value: 'week', label: 'Week' },
              { value: 'month', label: 'Month' },
              { value: 'by_date', label: 'By a date' },
            ]}
          />
          <Input label="Date (for 'By a date')" name="due_on" type="date" min={today} error={errors.due_on} />
        </div>
        <Button type="submit" className={TAP} disabled={busy || full}>
          Set goal
        </Button>
      </fetcher.Form>
      {courses.length > 0 && (
        <fetcher.Form method="post" className="space-y-3 border-t border-gray-200 pt-4">
          <input type="hidden" name="intent" value="create" />
          <input type="hidden" name="kind" value="course" />
          <h3 className="font-semibold text-gray-900">A course to finish</h3>
          <Select label="Course" name="course_id" options={courses} error={errors.course_id} />
          <Input
            label="Finish by"
            name="due_on"
            type="date"
            min={today}
            defaultValue={addDays(today, GOALS.suggestedCourseDays)}
            required
            error={errors.due_on}
          />
          <Button type="submit" className={TAP} disabled={busy || full}>
            Set course goal
          </Button>
        </fetcher.Form>
      )}
    </Card>
  );
}

export default function GoalsPage({ loaderData }: Route.ComponentProps) {
  const { goals, courses, today } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">My Goals</h1>
        <p className="mt-1 text-gray-700">Set a target, log what you do in two taps, and keep your streak going.</p>
      </div>
      {goals.length === 0 ? (
        <p className="text-gray-700">No goals yet. Start with one you can act on this week.</p>
      ) : (
        <ul className="space-y-3">
          {goals.map((goal) => (
            <GoalCard key={goal.id} goal={goal} heading="h2">
              <ReminderForm goal={goal} />
              <RemoveGoal goal={goal} />
            </GoalCard>
          ))}
        </ul>
      )}
      <NewGoal courses={courses} today={today} full={goals.length >= GOALS.maxActive} />
    </div>
  );
}
