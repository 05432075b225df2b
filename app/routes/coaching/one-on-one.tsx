import { Form, Link, redirect, useFetcher } from 'react-router';
import { z } from 'zod';
import { TEXT_MAX } from '../../../common/limits.ts';
import type { BookingView, FreeSlots } from '../../../common/one-on-one.contract.ts';
import { mayBookOneOnOne } from '../../../common/policies.ts';
import { DEFAULT_TIME_ZONE, formatClockInZone, formatInZone } from '../../../common/time-zones.ts';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmedForm } from '../../components/ui/confirmed-form.tsx';
import { Select, Textarea } from '../../components/ui/field.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, pageServices, pageSession } from '../../lib/page-context.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { Route } from './+types/one-on-one';

// Gold's monthly 1-on-1: the member's bookings, and a picker of a coach's free times (a fortnight
// at a time) to book or to move a booking to. Works without JavaScript: links and plain forms.

export const meta = () => pageMeta({ title: '1-on-1 Coaching', description: 'Book your monthly 1-on-1 with a coach.' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, viewer, member } = memberPageServices(context);
  const timeZone = member.timeZone ?? DEFAULT_TIME_ZONE;
  if (!mayBookOneOnOne(viewer)) return { gold: false as const, timeZone };
  const params = new URL(request.url).searchParams;
  const [mine, coaches] = await Promise.all([services.oneOnOne.mine(viewer), services.oneOnOne.coaches(viewer)]);
  const moving = mine.upcoming.find((booking) => booking.id === params.get('reschedule') && booking.can_change) ?? null;
  const coachId = moving?.coach.id ?? coaches.find((coach) => coach.id === params.get('coach'))?.id ?? coaches[0]?.id;
  const slots = coachId
    ? await attempt(() => services.oneOnOne.freeSlots(viewer, { coach: coachId, from: params.get('from') ?? undefined }))
    : null;
  return { gold: true as const, timeZone, mine, coaches, moving, slots: slots?.ok ? slots.value : null };
}

const BookingForm = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('book'),
    coach_id: z.uuid('Choose a coach'),
    starts_at: z.string({ error: 'Choose a time' }).min(1, 'Choose a time'),
    topic: z.string().max(TEXT_MAX.bookingTopic).default(''),
  }),
  z.object({
    intent: z.literal('reschedule'),
    bookingId: z.uuid(),
    starts_at: z.string({ error: 'Choose a time' }).min(1, 'Choose a time'),
  }),
  z.object({ intent: z.literal('cancel'), bookingId: z.uuid() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(BookingForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const input = form.data;
  const done = await attempt(async () => {
    if (input.intent === 'book') return services.oneOnOne.book(viewer, input);
    if (input.intent === 'reschedule') return services.oneOnOne.reschedule(viewer, input.bookingId, input);
    return services.oneOnOne.cancel(viewer, input.bookingId);
  });
  if (!done.ok) return done.refusal;
  // A flash on the page anew: the card that asked may be gone from it (a cancelled booking).
  pageSession(context).flash({ type: 'success', message: DONE[input.intent] });
  throw redirect('/coaching/one-on-one');
}

const DONE = {
  book: 'Your 1-on-1 is booked. We mailed you the details.',
  reschedule: 'Your 1-on-1 has its new time.',
  cancel: 'Your 1-on-1 is cancelled. This month’s 1-on-1 is yours to book again.',
} as const;

const TAP = 'min-h-11';

function BookingCard({ booking, timeZone }: { booking: BookingView; timeZone: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  return (
    <Card as="li" className="p-5" data-testid="booking">
      <p className="font-bold text-gray-900">{formatInZone(booking.starts_at, timeZone)}</p>
      <p className="text-sm text-gray-700">
        With {booking.coach.name} · until {formatClockInZone(booking.ends_at, timeZone)}
      </p>
      {booking.topic && <p className="mt-2 text-sm text-gray-700">To work on: {booking.topic}</p>}
      <div className="mt-4 flex flex-wrap gap-2">
        {booking.meeting_url && (
          <a href={booking.meeting_url} className={buttonClass({ variant: 'gold', size: 'sm', className: TAP })} rel="noopener noreferrer">
            Meeting link
          </a>
        )}
        <a
          href={`/api/one-on-one/bookings/${booking.id}/calendar.ics`}
          download
          className={buttonClass({ variant: 'ghost', size: 'sm', className: TAP })}
        >
          Add to calendar
        </a>
        {booking.can_change ? (
          <>
            <ButtonLink to={`?reschedule=${booking.id}`} variant="outline" size="sm" className={TAP}>
              Reschedule
            </ButtonLink>
            <ConfirmedForm fetcher={fetcher} question="Cancel this 1-on-1?" fields={{ intent: 'cancel', bookingId: booking.id }}>
              <Button type="submit" variant="outline" size="sm" className={TAP} disabled={fetcher.state !== 'idle'}>
                Cancel 1-on-1
              </Button>
            </ConfirmedForm>
          </>
        ) : (
          <p className="text-sm text-gray-600">Less than 24 hours to go: to change it, please contact us.</p>
        )}
      </div>
    </Card>
  );
}

const dayLabel = (date: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** A fortnight of a coach's free times, as choices of one form. */
function SlotPicker({ slots, timeZone, moving }: { slots: FreeSlots; timeZone: string; moving: BookingView | null }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  const keep = (from: string) => `?${new URLSearchParams({ ...(moving ? { reschedule: moving.id } : { coach: slots.coach.id }), from })}`;
  return (
    <fetcher.Form method="post" className="space-y-4">
      <input type="hidden" name="intent" value={moving ? 'reschedule' : 'book'} />
      {moving ? <input type="hidden" name="bookingId" value={moving.id} /> : <input type="hidden" name="coach_id" value={slots.coach.id} />}
      {slots.days.length === 0 ? (
        <p className="text-gray-700">No free times in these two weeks. Try the next ones.</p>
      ) : (
        <fieldset className="space-y-4">
          <legend className="sr-only">Choose a time</legend>
          {slots.days.map((day) => (
            <div key={day.date}>
              <h3 className="text-sm font-bold text-gray-900">{dayLabel(day.date)}</h3>
              <div className="mt-2 flex flex-wrap gap-2">
                {day.starts.map((start) => (
                  <label
                    key={start}
                    className="inline-flex min-h-11 cursor-pointer items-center rounded-lg bg-white px-4 text-sm font-semibold text-gray-800 ring-1 ring-gray-300 has-[:checked]:bg-brand-800 has-[:checked]:text-white"
                  >
                    <input type="radio" name="starts_at" value={start} className="sr-only" required />
                    {formatClockInZone(start, timeZone)}
                  </label>
                ))}
              </div>
            </div>
          ))}
        </fieldset>
      )}
      {errors.starts_at && <p className="text-sm text-red-700">{errors.starts_at}</p>}
      <nav aria-label="Other dates" className="flex flex-wrap gap-2">
        {slots.previous_from && (
          <Link to={keep(slots.previous_from)} className={buttonClass({ variant: 'ghost', size: 'sm', className: TAP })}>
            Earlier dates
          </Link>
        )}
        {slots.next_from && (
          <Link to={keep(slots.next_from)} className={buttonClass({ variant: 'ghost', size: 'sm', className: TAP })}>
            Later dates
          </Link>
        )}
      </nav>
      {!moving && (
        <Textarea
          label="What do you want to work on? (optional)"
          name="topic"
          rows={3}
          maxLength={TEXT_MAX.bookingTopic}
          error={errors.topic}
        />
      )}
      {slots.days.length > 0 && (
        <Button type="submit" className={TAP} disabled={fetcher.state !== 'idle'}>
          {moving ? 'Move to this time' : 'Book this time'}
        </Button>
      )}
    </fetcher.Form>
  );
}

export default function OneOnOnePage({ loaderData }: Route.ComponentProps) {
  const { timeZone } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div>
        <Link to="/coaching" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline">
          ← Live Coaching
        </Link>
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">1-on-1 Coaching</h1>
        <p className="mt-1 text-gray-700">
          One private session with a coach each month. Times are in your time zone, {timeZone.replace(/_/g, ' ')}.{' '}
          <Link to="/account#time-zone" className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline">
            Change it
          </Link>
        </p>
      </div>
      {!loaderData.gold ? (
        <Card className="p-6">
          <h2 className="text-lg font-bold text-gray-900">Monthly 1-on-1 coaching is part of the Gold plan</h2>
          <p className="mt-1 text-gray-700">Work through your listings, pricing and goals with a coach, one hour each month.</p>
          <ButtonLink to="/pricing" variant="gold" className={`${TAP} mt-4`}>
            Upgrade to Gold
          </ButtonLink>
        </Card>
      ) : (
        <GoldView {...loaderData} />
      )}
    </div>
  );
}

function GoldView({ mine, coaches, moving, slots, timeZone }: Extract<Route.ComponentProps['loaderData'], { gold: true }>) {
  return (
    <>
      <section aria-labelledby="my-one-on-ones" className="space-y-3">
        <h2 id="my-one-on-ones" className="text-lg font-bold text-gray-900">
          Your 1-on-1s
        </h2>
        <p className="text-sm text-gray-700">
          {mine.this_month.booked
            ? `You have your 1-on-1 for ${mine.this_month.label}.`
            : `Your 1-on-1 for ${mine.this_month.label} is yours to book.`}
        </p>
        {mine.upcoming.length > 0 && (
          <ul className="space-y-3">
            {mine.upcoming.map((booking) => (
              <BookingCard key={booking.id} booking={booking} timeZone={timeZone} />
            ))}
          </ul>
        )}
      </section>

      <Card as="section" className="space-y-4 p-5" aria-labelledby="book-title">
        <h2 id="book-title" className="text-lg font-bold text-gray-900">
          {moving ? `Move your 1-on-1 of ${formatInZone(moving.starts_at, timeZone)}` : 'Book a 1-on-1'}
        </h2>
        {moving && (
          <Link to="?" className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 underline">
            Keep the current time
          </Link>
        )}
        {coaches.length === 0 ? (
          <p className="text-gray-700">No coach is taking 1-on-1s right now. Please check back soon.</p>
        ) : (
          <>
            {!moving && coaches.length > 1 && (
              <Form method="get" className="flex flex-wrap items-end gap-2">
                <Select
                  label="Coach"
                  name="coach"
                  defaultValue={slots?.coach.id}
                  options={coaches.map((coach) => ({ value: coach.id, label: coach.name }))}
                />
                <Button type="submit" variant="outline" className={TAP}>
                  Show times
                </Button>
              </Form>
            )}
            {slots && (
              <>
                <p className="text-sm text-gray-700">
                  With {slots.coach.name}, {slots.slot_minutes} minutes. Choose a time:
                </p>
                <SlotPicker key={`${slots.coach.id}-${slots.from}-${moving?.id ?? ''}`} slots={slots} timeZone={timeZone} moving={moving} />
              </>
            )}
          </>
        )}
      </Card>
    </>
  );
}
