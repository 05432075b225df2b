import { useFetcher } from 'react-router';
import { GOALS } from '../../../common/limits.ts';
import type { GoalView } from '../../../common/goals.contract.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { action } from '../../routes/goals/goals.tsx';
import { Button } from '../ui/button.tsx';

// A goal as the member sees it on the dashboard and on /goals: the bar of this period, the streak,
// and (for count goals) logging in two taps: '+1', or an amount and 'Log'.

const TAP = 'min-h-11';

function standingOf(goal: GoalView): string {
  return goal.kind === 'course'
    ? `${goal.done} of ${goal.target} lessons, ${goal.period_label}`
    : `${goal.done} of ${goal.target} ${goal.unit} ${goal.period_label}`;
}

function QuickLog({ goal }: { goal: GoalView }) {
  // Logged by the /goals action, wherever the card is shown (the dashboard too).
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const busy = fetcher.state !== 'idle';
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <fetcher.Form method="post" action="/goals">
        <input type="hidden" name="intent" value="log" />
        <input type="hidden" name="goalId" value={goal.id} />
        <input type="hidden" name="amount" value="1" />
        <Button type="submit" size="sm" className={TAP} disabled={busy} aria-label={`Log 1 ${goal.unit} for ${goal.title}`}>
          +1
        </Button>
      </fetcher.Form>
      <fetcher.Form method="post" action="/goals" className="flex items-center gap-2">
        <input type="hidden" name="intent" value="log" />
        <input type="hidden" name="goalId" value={goal.id} />
        <input
          type="number"
          name="amount"
          min={-GOALS.maxLogged}
          max={GOALS.maxLogged}
          required
          aria-label={`How many ${goal.unit} for ${goal.title}`}
          className="h-11 w-20 rounded-lg border border-gray-300 px-2 text-sm"
        />
        <Button type="submit" size="sm" variant="outline" className={TAP} disabled={busy}>
          Log
        </Button>
      </fetcher.Form>
    </div>
  );
}

/** A goal; its title is a heading one level below the list's (h3 under the dashboard's 'Your Goals', h2 on /goals). */
export function GoalCard({
  goal,
  heading: Heading = 'h3',
  children,
}: {
  goal: GoalView;
  heading?: 'h2' | 'h3';
  children?: React.ReactNode;
}) {
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-testid="goal">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Heading className="font-bold text-gray-900">{goal.title}</Heading>
        {goal.streak_days > 0 && <span className="text-sm font-semibold text-gold-600">🔥 {goal.streak_days}-day streak</span>}
      </div>
      <p className="mt-1 text-sm text-gray-700">
        {standingOf(goal)}
        {goal.reached ? ' · Reached!' : ''}
      </p>
      <div
        className="mt-2 h-3 w-full overflow-hidden rounded-full bg-gray-200"
        role="progressbar"
        aria-label={`${goal.title} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={goal.percent}
      >
        <div className={`h-full rounded-full ${goal.reached ? 'bg-green-600' : 'bg-brand-700'}`} style={{ width: `${goal.percent}%` }} />
      </div>
      {goal.kind === 'count' ? (
        <QuickLog goal={goal} />
      ) : (
        <p className="mt-2 text-xs text-gray-600">Moves by itself as you complete the course’s lessons.</p>
      )}
      {children}
    </li>
  );
}
