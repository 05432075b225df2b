import { useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { z } from 'zod';
import type { CalendarFeedCreated, RecordingView, SessionView } from '../../../common/coaching.contract.ts';
import { DEFAULT_TIME_ZONE, formatClockInZone, formatInZone } from '../../../common/time-zones.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';
import { TierBadge } from '../../components/catalogue/tier-badge.tsx';
import { LessonPlayer } from '../../components/learning/lesson-player.tsx';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { attempt, invalid, parseForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, orFallback, pageServices } from '../../lib/page-context.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { Route } from './+types/coaching';

export const meta = () =>
  pageMeta({ title: 'Live Coaching', description: 'Live group coaching sessions, their recordings, and your calendar.' });

const TABS = { upcoming: 'Sessions and events', recordings: 'Recordings' } as const;
type Tab = keyof typeof TABS;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, viewer, member } = memberPageServices(context);
  const params = new URL(request.url).searchParams;
  const tab: Tab = params.get('tab') === 'recordings' ? 'recordings' : 'upcoming';
  const cursor = params.get('page') ?? undefined;
  const [sessions, recordings, feed] = await Promise.all([
    tab === 'upcoming' ? attempt(() => services.coaching.upcoming(viewer, { after: cursor })) : null,
    tab === 'recordings' ? attempt(() => services.coaching.recordings(viewer, { before: cursor })) : null,
    orFallback(services.coaching.feedStatus(viewer), { active: false, created_at: null }, 'your calendar feed'),
  ]);
  const empty = { items: [], next_cursor: null };
  return {
    tab,
    timeZone: member.timeZone ?? DEFAULT_TIME_ZONE,
    sessions: sessions?.ok ? sessions.value : empty,
    recordings: recordings?.ok ? recordings.value : empty,
    feed,
  };
}

const CoachingForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rsvp'), sessionId: z.uuid('Choose a session') }),
  z.object({ intent: z.literal('cancel-rsvp'), sessionId: z.uuid('Choose a session') }),
  z.object({ intent: z.literal('waitlist'), sessionId: z.uuid('Choose a session') }),
  z.object({ intent: z.literal('leave-waitlist'), sessionId: z.uuid('Choose a session') }),
  z.object({ intent: z.literal('feed-reset') }),
  z.object({ intent: z.literal('feed-stop') }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(CoachingForm, request);
  if (!form.ok) return invalid(form);
  const { services, viewer } = pageServices(context);
  const input = form.data;
  switch (input.intent) {
    case 'rsvp': {
      const done = await attempt(() => services.coaching.rsvp(viewer, input.sessionId));
      return done.ok ? { ok: true as const, message: "You're in: see you there!" } : done.refusal;
    }
    case 'cancel-rsvp': {
      const done = await attempt(() => services.coaching.cancelRsvp(viewer, input.sessionId));
      return done.ok ? { ok: true as const, message: 'Your RSVP is cancelled.' } : done.refusal;
    }
    case 'waitlist': {
      const done = await attempt(() => services.coaching.joinWaitlist(viewer, input.sessionId));
      return done.ok ? { ok: true as const, message: "You're on the waiting list: we'll email you if a place opens." } : done.refusal;
    }
    case 'leave-waitlist': {
      const done = await attempt(() => services.coaching.leaveWaitlist(viewer, input.sessionId));
      return done.ok ? { ok: true as const, message: 'You left the waiting list.' } : done.refusal;
    }
    case 'feed-reset': {
      const done = await attempt(() => services.coaching.resetFeed(viewer));
      return done.ok ? { ok: true as const, message: 'Your calendar address is ready.', feed: done.value } : done.refusal;
    }
    case 'feed-stop': {
      const done = await attempt(() => services.coaching.stopFeed(viewer));
      return done.ok ? { ok: true as const, message: 'Your calendar address no longer works.' } : done.refusal;
    }
  }
}

const TAP = 'min-h-11';

function SessionActions({ session, timeZone }: { session: SessionView; timeZone: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const busy = fetcher.state !== 'idle';
  if (session.locked) {
    return (
      <ButtonLink to="/pricing" variant="gold" size="sm" className={TAP}>
        Upgrade to {TIER_LABEL[session.min_tier]} to join
      </ButtonLink>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {session.join_url ? (
        <a href={session.join_url} className={buttonClass({ variant: 'gold', size: 'sm', className: TAP })}>
          Join now
        </a>
      ) : (
        !session.address && (
          <span className="text-sm text-gray-600">
            {/* The join link is for members holding a place: the session's capacity is its places. */}
            {session.rsvped
              ? `Join link opens at ${formatClockInZone(session.join_opens_at, timeZone)}`
              : session.waitlisted
                ? 'The join link is for members with a place: we’ll email you if one opens.'
                : `RSVP to get the join link (it opens at ${formatClockInZone(session.join_opens_at, timeZone)})`}
          </span>
        )
      )}
      <fetcher.Form method="post">
        <input type="hidden" name="sessionId" value={session.id} />
        {session.rsvped ? (
          <Button type="submit" name="intent" value="cancel-rsvp" variant="outline" size="sm" className={TAP} disabled={busy}>
            Cancel RSVP
          </Button>
        ) : session.waitlisted ? (
          <Button type="submit" name="intent" value="leave-waitlist" variant="outline" size="sm" className={TAP} disabled={busy}>
            Leave the waiting list
          </Button>
        ) : session.seats_left === 0 ? (
          <Button type="submit" name="intent" value="waitlist" size="sm" className={TAP} disabled={busy}>
            Join the waiting list
          </Button>
        ) : (
          <Button type="submit" name="intent" value="rsvp" size="sm" className={TAP} disabled={busy}>
            RSVP
          </Button>
        )}
      </fetcher.Form>
      <a
        href={`/api/coaching/sessions/${session.id}/calendar.ics`}
        download
        className={buttonClass({ variant: 'ghost', size: 'sm', className: TAP })}
      >
        Add to calendar
      </a>
    </div>
  );
}

function SessionCard({ session, timeZone }: { session: SessionView; timeZone: string }) {
  return (
    <Card as="li" className="p-5" id={`session-${session.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <TierBadge tier={session.min_tier} />
        {session.kind === 'event' && <span className="text-xs font-semibold text-red-900">Event</span>}
        {session.weekly && <span className="text-xs font-semibold text-gray-600">Weekly</span>}
        {session.rsvped && <span className="text-xs font-semibold text-green-800">✓ You RSVP'd</span>}
        {session.waitlisted && <span className="text-xs font-semibold text-gray-700">On the waiting list</span>}
      </div>
      <h2 className="mt-2 text-lg font-bold text-gray-900">{session.title}</h2>
      <p className="text-sm text-gray-700">
        {formatInZone(session.starts_at, timeZone)} · {session.duration_minutes} min · with {session.host_name}
      </p>
      {session.address && <p className="mt-1 text-sm font-semibold text-gray-900">In person: {session.address}</p>}
      {session.description && <p className="mt-2 text-sm text-gray-700">{session.description}</p>}
      <p className="mt-2 text-xs text-gray-600">
        {session.seats_left === 0 ? 'No places left' : `${session.seats_left} of ${session.capacity} places left`}
      </p>
      <div className="mt-4">
        <SessionActions session={session} timeZone={timeZone} />
      </div>
    </Card>
  );
}

function RecordingCard({ recording, timeZone, onWatch }: { recording: RecordingView; timeZone: string; onWatch: () => void }) {
  return (
    <Card as="li" className="p-5">
      <TierBadge tier={recording.min_tier} />
      <h2 className="mt-2 text-lg font-bold text-gray-900">{recording.title}</h2>
      <p className="text-sm text-gray-700">
        {formatInZone(recording.starts_at, timeZone, false)} · with {recording.host_name}
      </p>
      {recording.notes && <p className="mt-2 whitespace-pre-line text-sm text-gray-700">{recording.notes}</p>}
      <div className="mt-4">
        {recording.locked ? (
          <ButtonLink to="/pricing" variant="gold" size="sm" className={TAP}>
            Upgrade to {TIER_LABEL[recording.min_tier]} to watch
          </ButtonLink>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <Button size="sm" className={TAP} onClick={onWatch}>
              Watch recording
            </Button>
            {/* A link may lead to a meeting service's own page rather than a video file: it opens there too. */}
            {!recording.uploaded && recording.video_url && (
              <a
                href={recording.video_url}
                className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
                rel="noopener noreferrer"
                target="_blank"
              >
                Open the recording’s page
              </a>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}

/** The member's private calendar address: made (or made anew) here, shown once. */
function CalendarFeed({ active, createdAt, timeZone }: { active: boolean; createdAt: string | null; timeZone: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const made: CalendarFeedCreated | undefined = fetcher.data?.ok && 'feed' in fetcher.data ? fetcher.data.feed : undefined;
  return (
    <Card as="section" className="p-5" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title" className="font-bold text-gray-900">
        Your sessions in your calendar app
      </h2>
      <p className="mt-1 text-sm text-gray-700">
        Subscribe once and every session you RSVP to appears in your calendar, with its changes. The address is private: anyone who has it
        sees your sessions.
      </p>
      {made ? (
        <div className="mt-3 space-y-2">
          <p className="text-sm font-semibold text-gray-900">Copy it now: it is shown only this once.</p>
          <input
            readOnly
            value={made.url}
            aria-label="Your calendar address"
            className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
          />
          <a href={made.webcal_url} className={buttonClass({ variant: 'outline', size: 'sm', className: TAP })}>
            Open in my calendar app
          </a>
        </div>
      ) : (
        active &&
        createdAt && <p className="mt-2 text-sm text-gray-600">Your address was made {formatInZone(createdAt, timeZone, false)}.</p>
      )}
      <fetcher.Form method="post" className="mt-3 flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="feed-reset" size="sm" className={TAP} disabled={fetcher.state !== 'idle'}>
          {active ? 'Make a new address' : 'Get my calendar address'}
        </Button>
        {active && (
          <Button
            type="submit"
            name="intent"
            value="feed-stop"
            variant="outline"
            size="sm"
            className={TAP}
            disabled={fetcher.state !== 'idle'}
          >
            Stop my address
          </Button>
        )}
      </fetcher.Form>
    </Card>
  );
}

export default function CoachingPage({ loaderData }: Route.ComponentProps) {
  const { tab, timeZone, sessions, recordings, feed } = loaderData;
  const [watching, setWatching] = useState<RecordingView | null>(null);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Live Coaching</h1>
        <p className="mt-1 text-gray-700">
          Times are in your time zone, {timeZone.replace(/_/g, ' ')}.{' '}
          <Link to="/account#time-zone" className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline">
            Change it
          </Link>
        </p>
      </div>
      <nav aria-label="Coaching" className="flex flex-wrap gap-2">
        {(Object.keys(TABS) as Tab[]).map((key) => (
          <Link
            key={key}
            to={key === 'upcoming' ? '/coaching' : '/coaching?tab=recordings'}
            aria-current={tab === key ? 'page' : undefined}
            className={`${TAP} inline-flex items-center rounded-lg px-4 text-sm font-semibold ${tab === key ? 'bg-brand-800 text-white' : 'bg-white text-gray-700 ring-1 ring-gray-200'}`}
          >
            {TABS[key]}
          </Link>
        ))}
        <Link
          to="/coaching/one-on-one"
          className={`${TAP} inline-flex items-center rounded-lg bg-white px-4 text-sm font-semibold text-gray-700 ring-1 ring-gray-200`}
        >
          1-on-1 (Gold)
        </Link>
      </nav>

      {tab === 'upcoming' ? (
        <section aria-label="Upcoming sessions">
          {sessions.items.length === 0 ? (
            <p className="text-gray-700">No sessions are planned right now. New ones appear here as soon as they are scheduled.</p>
          ) : (
            <ul className="space-y-4">
              {sessions.items.map((session) => (
                <SessionCard key={session.id} session={session} timeZone={timeZone} />
              ))}
            </ul>
          )}
          <Pager param="page" next={sessions.next_cursor} label="Later sessions" />
          {sessions.items.some((session) => session.locked) ? (
            <p className="mt-4 text-sm text-gray-700">
              Silver includes weekly live coaching; Gold adds monthly 1-on-1 coaching.{' '}
              <Link to="/pricing" className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline">
                See the plans
              </Link>
            </p>
          ) : null}
        </section>
      ) : (
        <section aria-label="Recordings">
          {recordings.items.length === 0 ? (
            <p className="text-gray-700">Recordings of past sessions appear here.</p>
          ) : (
            <ul className="space-y-4">
              {recordings.items.map((recording) => (
                <RecordingCard key={recording.id} recording={recording} timeZone={timeZone} onWatch={() => setWatching(recording)} />
              ))}
            </ul>
          )}
          <Pager param="page" next={recordings.next_cursor} label="Older recordings" />
        </section>
      )}

      <CalendarFeed active={feed.active} createdAt={feed.created_at} timeZone={timeZone} />

      {watching && (
        <LessonPlayer
          lesson={{
            id: watching.id,
            kind: 'video',
            captions: watching.captions,
            opens: null,
            title: watching.title,
            duration: `${watching.duration_minutes} min`,
            description: watching.notes ?? '',
            video_url: watching.video_url,
            has_video: true,
            free_preview: false,
            attachments: [],
          }}
          next={null}
          progress={null}
          completeForm={null}
          recording
          onClose={() => setWatching(null)}
          onNext={() => {}}
          onProgress={() => {}}
        />
      )}
    </div>
  );
}
