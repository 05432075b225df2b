import { Link, useFetcher } from 'react-router';
import { ONE_ON_ONE } from '../../../../common/limits.ts';
import { Availability, type AvailabilityWindow } from '../../../../common/one-on-one.contract.ts';
import { formatInZone } from '../../../../common/time-zones.ts';
import { TIER_LABEL } from '../../../../common/tiers.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Select } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/one-on-one-tab';

// A coach's side of Gold's 1-on-1s: the week they take them (open hours and a break per weekday,
// days off, slot length, notice, meeting link) and who booked them, with how each member is doing.

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const after = new URL(request.url).searchParams.get('page') ?? undefined;
  const [availability, bookings] = await Promise.all([
    services.oneOnOneCoach.availability(viewer),
    attempt(() => services.oneOnOneCoach.bookings(viewer, { after })),
  ]);
  return {
    availability,
    bookings: bookings.ok ? bookings.value : { items: [], next_cursor: null },
    zones: Intl.supportedValuesOf('timeZone'),
  };
}

/** The week from the form: per weekday an open window and a break, each left empty when there is none. */
function weekFrom(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const windows: AvailabilityWindow[] = [];
  for (const [weekday] of WEEKDAYS.entries()) {
    for (const kind of ['open', 'break'] as const) {
      const [starts, ends] = [text(`${kind}_${weekday}_starts`), text(`${kind}_${weekday}_ends`)];
      if (starts || ends) windows.push({ weekday, starts, ends, kind });
    }
  }
  const added = text('day_off_added');
  return Availability.safeParse({
    time_zone: text('time_zone'),
    accepting: form.get('accepting') === 'on',
    meeting_url: text('meeting_url'),
    slot_minutes: text('slot_minutes'),
    min_notice_hours: text('min_notice_hours'),
    windows,
    days_off: [...form.getAll('days_off').map(String), ...(added ? [added] : [])],
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const input = weekFrom(form);
  if (!input.success) return refusedBy(input.error);
  const done = await attempt(() => services.oneOnOneCoach.setAvailability(viewer, input.data));
  return done.ok ? { ok: true as const, message: 'Your week is saved. Gold members see the new times at once.' } : done.refusal;
}

function WeekdayRow({ weekday, windows }: { weekday: number; windows: AvailabilityWindow[] }) {
  const open = windows.find((window) => window.weekday === weekday && window.kind === 'open');
  const pause = windows.find((window) => window.weekday === weekday && window.kind === 'break');
  const time = (name: string, label: string, value: string | undefined) => (
    <Input compact type="time" label={label} name={name} defaultValue={value} />
  );
  return (
    <fieldset className="rounded-lg border border-gray-200 p-3">
      <legend className="px-1 text-sm font-bold text-gray-900">{WEEKDAYS[weekday]}</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {time(`open_${weekday}_starts`, 'Open from', open?.starts)}
        {time(`open_${weekday}_ends`, 'until', open?.ends)}
        {time(`break_${weekday}_starts`, 'Break from', pause?.starts)}
        {time(`break_${weekday}_ends`, 'until', pause?.ends)}
      </div>
    </fieldset>
  );
}

export default function OneOnOneTab({ loaderData }: Route.ComponentProps) {
  const { availability, bookings, zones } = loaderData;
  const fetcher = useFetcher<typeof action>();
  return (
    <div className="space-y-8">
      <nav aria-label="Coaching" className="flex gap-2 text-sm font-semibold">
        <Link to="/admin/dashboard/coaching" className="inline-flex min-h-11 items-center rounded-lg bg-white px-4 ring-1 ring-gray-200">
          Live sessions
        </Link>
        <span aria-current="page" className="inline-flex min-h-11 items-center rounded-lg bg-brand-800 px-4 text-white">
          1-on-1s
        </span>
      </nav>

      <section aria-labelledby="bookings-title">
        <h2 id="bookings-title" className="text-lg font-bold text-gray-900">
          Your upcoming 1-on-1s
        </h2>
        {bookings.items.length === 0 ? (
          <p className="mt-2 text-sm text-gray-600">No 1-on-1s booked with you yet.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {bookings.items.map((booking) => (
              <li key={booking.id} className="rounded-xl border border-gray-200 bg-white p-4" data-testid="coach-booking">
                <p className="font-bold text-gray-900">{formatInZone(booking.starts_at, availability.time_zone)}</p>
                <p className="text-sm text-gray-700">
                  {booking.member.name} ({booking.member.email}) · {TIER_LABEL[booking.member.tier]}
                </p>
                {booking.topic && <p className="mt-1 text-sm text-gray-700">Wants to work on: {booking.topic}</p>}
                <p className="mt-1 text-xs text-gray-600">
                  {booking.progress.courses_enrolled} courses enrolled · {booking.progress.courses_completed} completed ·{' '}
                  {booking.progress.lessons_completed} lessons done
                </p>
                {booking.goals.length > 0 && (
                  <ul className="mt-2 space-y-1 text-sm text-gray-700" aria-label={`${booking.member.name}’s goals`}>
                    {booking.goals.map((goal) => (
                      <li key={goal.id}>
                        <span className="font-semibold">{goal.title}</span>: {goal.done} of {goal.target}
                        {goal.unit && ` ${goal.unit}`} {goal.period_label} ({goal.percent}%)
                        {goal.streak_days > 0 && ` · ${goal.streak_days}-day streak`}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
        <Pager param="page" next={bookings.next_cursor} label="Later 1-on-1s" />
      </section>

      <section aria-labelledby="week-title">
        <h2 id="week-title" className="text-lg font-bold text-gray-900">
          When you take 1-on-1s
        </h2>
        <p className="mt-1 text-sm text-gray-600">
          Gold members book a slot in your open hours, less your break, your days off and what is booked, at least your notice ahead.
        </p>
        <fetcher.Form method="post" className="mt-4 space-y-4">
          <label className="flex min-h-11 items-center gap-2 text-sm font-semibold text-gray-800">
            <input type="checkbox" name="accepting" defaultChecked={availability.accepting} className="h-5 w-5" /> Gold members may book me
          </label>
          <div className="grid gap-3 sm:grid-cols-2">
            <Select
              label="Your time zone"
              name="time_zone"
              defaultValue={availability.time_zone}
              options={zones.map((zone) => ({ value: zone, label: zone }))}
            />
            <Input label="Meeting link (https://)" name="meeting_url" type="url" defaultValue={availability.meeting_url} />
            <Input
              label="Slot length (minutes)"
              name="slot_minutes"
              type="number"
              min={ONE_ON_ONE.slotMinutes.min}
              max={ONE_ON_ONE.slotMinutes.max}
              defaultValue={availability.slot_minutes}
            />
            <Input
              label="Notice (hours ahead)"
              name="min_notice_hours"
              type="number"
              min={ONE_ON_ONE.minNoticeHours.min}
              max={ONE_ON_ONE.minNoticeHours.max}
              defaultValue={availability.min_notice_hours}
            />
          </div>
          <div className="space-y-2">
            {WEEKDAYS.map((_, weekday) => (
              <WeekdayRow key={weekday} weekday={weekday} windows={availability.windows} />
            ))}
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-bold text-gray-900">Days off</legend>
            {availability.days_off.map((day) => (
              <label key={day} className="flex min-h-11 items-center gap-2 text-sm text-gray-800">
                <input type="checkbox" name="days_off" value={day} defaultChecked className="h-5 w-5" /> {day}
              </label>
            ))}
            <Input compact type="date" label="Add a day off" name="day_off_added" />
          </fieldset>
          <Outcome answer={fetcher.data} />
          <Button type="submit" className="min-h-11" disabled={fetcher.state !== 'idle'}>
            Save my week
          </Button>
        </fetcher.Form>
      </section>
    </div>
  );
}
