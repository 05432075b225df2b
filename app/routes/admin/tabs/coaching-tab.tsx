import { Link, useFetcher } from 'react-router';
import { z } from 'zod';
import {
  DisplayNameInput,
  MoveInput,
  RecordingInput,
  SeriesInput,
  SeriesUpdate,
  SessionParams,
  type StaffSessionView,
} from '../../../../common/coaching.contract.ts';
import { COACHING, TEXT_MAX } from '../../../../common/limits.ts';
import { DEFAULT_TIME_ZONE, formatInZone, localDateOf, localTimeOf } from '../../../../common/time-zones.ts';
import { TIER_LABEL, TIERS, type Tier } from '../../../../common/tiers.ts';
import { formValues, libraryChoices, withCaptions, type FieldErrors } from '../../../components/admin/course-forms.tsx';
import { CaptionsFields } from '../../../components/admin/lesson-fields.tsx';
import { EditDetails } from '../../../components/admin/edit-details.tsx';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { TierBadge } from '../../../components/catalogue/tier-badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { Input, Select, Textarea } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/coaching-tab';

// Staff schedule live group sessions (once or weekly), move or cancel single ones, see who RSVP'd
// and joined, and add the recording and notes afterwards. Times are typed in the session's zone.

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer, staff } = staffPageServices(context);
  const params = new URL(request.url).searchParams;
  const when = params.get('when') === 'past' ? 'past' : 'upcoming';
  const query = { when, cursor: params.get('page') ?? undefined } as const;
  const [sessions, hosts, files] = await Promise.all([
    attempt(() => services.coachingAdmin.sessions(viewer, query)),
    services.coachingAdmin.hosts(viewer),
    services.files.choices(viewer),
  ]);
  return {
    when,
    sessions: sessions.ok ? sessions.value : { items: [], next_cursor: null },
    hosts,
    me: staff.id,
    videos: libraryChoices(files).videos,
    captionFiles: libraryChoices(files).captions,
  };
}

const SessionId = z.object({ sessionId: SessionParams.shape.id });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const intent = form.get('intent');
  if (intent === 'display-name') {
    const input = DisplayNameInput.safeParse(formValues(form, {}));
    if (!input.success) return refusedBy(input.error);
    const done = await attempt(() => services.coachingAdmin.setDisplayName(viewer, input.data.display_name));
    return done.ok ? { ok: true as const, message: 'Members now see you by this name.' } : done.refusal;
  }
  if (intent === 'schedule') {
    const input = SeriesInput.safeParse(formValues(form, { checkboxes: ['weekly'] }));
    if (!input.success) return refusedBy(input.error);
    const done = await attempt(() => services.coachingAdmin.schedule(viewer, input.data));
    return done.ok ? { ok: true as const, message: `“${done.value.title}” is scheduled.` } : done.refusal;
  }
  const target = SessionId.safeParse({ sessionId: form.get('sessionId') });
  if (!target.success) return formErrors(target.error.issues[0]?.message ?? 'Choose a session.');
  const { sessionId } = target.data;
  switch (intent) {
    case 'move': {
      const input = MoveInput.safeParse(formValues(form, {}));
      if (!input.success) return refusedBy(input.error);
      const done = await attempt(() => services.coachingAdmin.move(viewer, sessionId, input.data));
      return done.ok ? { ok: true as const, message: 'Session moved; those who RSVP’d are told.' } : done.refusal;
    }
    case 'cancel': {
      const done = await attempt(() => services.coachingAdmin.cancel(viewer, sessionId));
      return done.ok ? { ok: true as const, message: 'Session cancelled; those who RSVP’d are told.' } : done.refusal;
    }
    case 'series': {
      const seriesId = z.uuid().safeParse(form.get('seriesId'));
      if (!seriesId.success) return formErrors('Choose a series.');
      const input = SeriesUpdate.safeParse(formValues(form, {}));
      if (!input.success) return refusedBy(input.error);
      const done = await attempt(() => services.coachingAdmin.updateSeries(viewer, seriesId.data, input.data));
      return done.ok
        ? { ok: true as const, message: 'Saved for every coming session; those who RSVP’d are told of what changed.' }
        : done.refusal;
    }
    case 'end-series': {
      const seriesId = z.uuid().safeParse(form.get('seriesId'));
      if (!seriesId.success) return formErrors('Choose a series.');
      const done = await attempt(() => services.coachingAdmin.endSeries(viewer, seriesId.data));
      return done.ok ? { ok: true as const, message: 'The weekly series is ended; its coming sessions are cancelled.' } : done.refusal;
    }
    case 'recording': {
      const input = RecordingInput.safeParse(
        withCaptions(formValues(form, { nullable: ['recording_file_id'], lists: ['captions_language', 'captions_file_id'] })),
      );
      if (!input.success) return refusedBy(input.error);
      const done = await attempt(() => services.coachingAdmin.record(viewer, sessionId, input.data));
      return done.ok ? { ok: true as const, message: 'Recording and notes saved.' } : done.refusal;
    }
    default:
      return formErrors('Choose what to do with the session.');
  }
}

type Loaded = Route.ComponentProps['loaderData'];

/** The title, text, host and plan of a session: as staff schedule one, and as they edit its series. */
function SessionBasics({
  hosts,
  errors,
  values,
}: {
  hosts: Loaded['hosts'];
  errors: FieldErrors;
  values: { title?: string; description?: string; host: string; minTier: Tier };
}) {
  return (
    <>
      <Input
        compact
        label="Title"
        name="title"
        required
        defaultValue={values.title}
        maxLength={TEXT_MAX.sessionTitle}
        error={errors.title}
        className="sm:col-span-2"
      />
      <Textarea
        compact
        label="Description"
        name="description"
        rows={3}
        defaultValue={values.description}
        maxLength={TEXT_MAX.sessionDescription}
        error={errors.description}
        className="sm:col-span-2"
      />
      <Select
        compact
        label="Host"
        name="host_staff_id"
        defaultValue={values.host}
        options={hosts.map((host) => ({ value: host.id, label: `${host.name} (${host.email})` }))}
        error={errors.host_staff_id}
      />
      <Select
        compact
        label="Lowest tier that may join"
        name="min_tier"
        defaultValue={values.minTier}
        options={TIERS.map((value) => ({ value, label: TIER_LABEL[value] }))}
        error={errors.min_tier}
      />
    </>
  );
}

function ScheduleFields({ hosts, me, errors }: { hosts: Loaded['hosts']; me: string; errors: FieldErrors }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Select
        compact
        label="What it is"
        name="kind"
        defaultValue="session"
        options={[
          { value: 'session', label: 'A live coaching session (online)' },
          { value: 'event', label: 'An event (online, or in person at an address)' },
        ]}
        error={errors.kind}
        className="sm:col-span-2"
      />
      <SessionBasics hosts={hosts} errors={errors} values={{ host: me, minTier: 'silver' }} />
      <Input compact label="Date" name="date" type="date" required error={errors.date} />
      <Input compact label="Start time" name="time" type="time" required error={errors.time} />
      <Input compact label="Time zone" name="time_zone" defaultValue={DEFAULT_TIME_ZONE} required error={errors.time_zone} />
      <Input
        compact
        label="Duration (minutes)"
        name="duration_minutes"
        type="number"
        min={COACHING.minMinutes}
        max={COACHING.maxMinutes}
        defaultValue={COACHING.defaultMinutes}
        required
        error={errors.duration_minutes}
      />
      <Input
        compact
        label="Capacity"
        name="capacity"
        type="number"
        min={1}
        max={COACHING.maxCapacity}
        defaultValue={COACHING.defaultCapacity}
        required
        error={errors.capacity}
      />
      <Input compact label="Join link (https://)" name="join_url" type="url" maxLength={TEXT_MAX.link} error={errors.join_url} />
      <Input compact label="Address (an event in person)" name="address" maxLength={TEXT_MAX.eventAddress} error={errors.address} />
      <label className="flex min-h-11 items-center gap-2 text-sm font-semibold text-gray-800 sm:col-span-2">
        <input type="checkbox" name="weekly" className="h-5 w-5" /> Every week at this time ({COACHING.weeksAhead} weeks are planned ahead)
      </label>
    </div>
  );
}

/** What every coming session of the series shares: its title, text, host, plan, places and place. */
function SeriesFieldsEditor({ session, hosts, errors }: { session: StaffSessionView; hosts: Loaded['hosts']; errors: FieldErrors }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <SessionBasics
        hosts={hosts}
        errors={errors}
        values={{ title: session.title, description: session.description, host: session.host_staff_id ?? '', minTier: session.min_tier }}
      />
      <Input
        compact
        label="Capacity"
        name="capacity"
        type="number"
        min={1}
        max={COACHING.maxCapacity}
        required
        defaultValue={session.capacity}
        error={errors.capacity}
      />
      <Input
        compact
        label="Join link (https://)"
        name="join_url"
        type="url"
        defaultValue={session.join_url}
        maxLength={TEXT_MAX.link}
        error={errors.join_url}
      />
      {session.kind === 'event' && (
        <Input
          compact
          label="Address (an event in person)"
          name="address"
          defaultValue={session.address ?? ''}
          maxLength={TEXT_MAX.eventAddress}
          error={errors.address}
          className="sm:col-span-2"
        />
      )}
    </div>
  );
}

function SessionItem({
  session,
  videos,
  captionFiles,
  hosts,
  upcoming,
}: {
  session: StaffSessionView;
  videos: Loaded['videos'];
  captionFiles: Loaded['captionFiles'];
  hosts: Loaded['hosts'];
  upcoming: boolean;
}) {
  const fetcher = useFetcher<typeof action>();
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  const local = localTimeOf(new Date(session.starts_at), session.time_zone);
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-session-id={session.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-gray-900">
            {session.title}
            {session.cancelled && <span className="ml-2 text-xs font-bold text-red-700">Cancelled</span>}
          </p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-600">
            <TierBadge tier={session.min_tier} />
            <span>{formatInZone(session.starts_at, session.time_zone)}</span>
            <span>
              · {session.duration_minutes} min · {session.host_name}
            </span>
            <span>
              · {session.rsvp_count}/{session.capacity} RSVP’d · {session.waitlist_count} waiting · {session.attended_count} joined
            </span>
            {session.kind === 'event' && <span>· event{session.address ? `, ${session.address}` : ', online'}</span>}
            {session.weekly && <span>· weekly{session.series_ended ? ' (ended)' : ''}</span>}
          </p>
        </div>
        {upcoming && !session.cancelled && (
          <ConfirmedForm
            fetcher={fetcher}
            question={`Cancel “${session.title}” on ${formatInZone(session.starts_at, session.time_zone)}? Those who RSVP’d are told.`}
            fields={{ intent: 'cancel', sessionId: session.id }}
          >
            <Button type="submit" size="sm" variant="outline">
              Cancel session
            </Button>
          </ConfirmedForm>
        )}
      </div>
      {upcoming && !session.cancelled && (
        <EditDetails
          answerBelow={false}
          fetcher={fetcher}
          summary="Move this session"
          fields={{ intent: 'move', sessionId: session.id }}
          submitLabel="Move"
        >
          <div className="grid gap-3 sm:grid-cols-3">
            <Input
              compact
              label="Date"
              name="date"
              type="date"
              required
              defaultValue={localDateOf(new Date(session.starts_at), session.time_zone)}
              error={errors.date}
            />
            <Input
              compact
              label="Start time"
              name="time"
              type="time"
              required
              defaultValue={`${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`}
              error={errors.time}
            />
            <Input compact label="Time zone" name="time_zone" required defaultValue={session.time_zone} error={errors.time_zone} />
          </div>
        </EditDetails>
      )}
      {upcoming && !session.cancelled && !session.series_ended && (
        <EditDetails
          answerBelow={false}
          fetcher={fetcher}
          summary={session.weekly ? 'Edit the series (every coming session)' : 'Edit this session’s details'}
          fields={{ intent: 'series', sessionId: session.id, seriesId: session.series_id }}
          submitLabel="Save"
        >
          <SeriesFieldsEditor session={session} hosts={hosts} errors={errors} />
        </EditDetails>
      )}
      {!upcoming && (
        <EditDetails
          answerBelow={false}
          fetcher={fetcher}
          summary={session.recording_file_id || session.recording_url ? 'Edit recording and notes' : 'Add the recording and notes'}
          fields={{ intent: 'recording', sessionId: session.id }}
          submitLabel="Save recording"
        >
          <Select
            compact
            label="Uploaded video"
            name="recording_file_id"
            defaultValue={session.recording_file_id ?? ''}
            options={[{ value: '', label: 'None' }, ...videos.map((file) => ({ value: file.id, label: file.filename }))]}
            error={errors.recording_file_id}
          />
          <Input
            compact
            label="Or a link (https://)"
            name="recording_url"
            type="url"
            defaultValue={session.recording_url ?? ''}
            maxLength={TEXT_MAX.link}
            error={errors.recording_url}
          />
          <Textarea
            compact
            label="Notes"
            name="notes"
            rows={4}
            defaultValue={session.notes}
            maxLength={TEXT_MAX.sessionNotes}
            error={errors.notes}
          />
          <CaptionsFields chosen={session.captions} files={captionFiles} />
          {errors.captions && <p className="text-sm text-red-700">{errors.captions}</p>}
        </EditDetails>
      )}
      {session.weekly && !session.series_ended && upcoming && (
        <ConfirmedForm
          fetcher={fetcher}
          question={`End the weekly series “${session.title}”? Its coming sessions are cancelled and those who RSVP’d are told.`}
          fields={{ intent: 'end-series', sessionId: session.id, seriesId: session.series_id }}
        >
          <button type="submit" className="mt-2 min-h-11 text-sm font-semibold text-red-700 underline">
            End the weekly series
          </button>
        </ConfirmedForm>
      )}
      {/* One answer for the item's forms (move, edit, recording, cancel), shown once. */}
      <div className="mt-2">
        <Outcome answer={fetcher.data} />
      </div>
    </li>
  );
}

export default function CoachingTab({ loaderData }: Route.ComponentProps) {
  const { when, sessions, hosts, me, videos, captionFiles } = loaderData;
  const scheduling = useFetcher<typeof action>();
  const naming = useFetcher<typeof action>();
  const myName = hosts.find((host) => host.id === me)?.name ?? '';
  return (
    <section className="space-y-8">
      <div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-xl font-bold text-gray-900">Live coaching</h2>
          <Link
            to="/admin/dashboard/coaching/one-on-one"
            className="inline-flex min-h-11 items-center rounded-lg bg-white px-4 text-sm font-semibold text-brand-800 ring-1 ring-gray-200"
          >
            1-on-1s: your week and bookings
          </Link>
        </div>
        <nav aria-label="Sessions" className="mt-3 flex gap-2 text-sm font-semibold">
          <Link to="?" aria-current={when === 'upcoming' ? 'page' : undefined} className="min-h-11 rounded-lg bg-white px-4 py-3">
            Upcoming
          </Link>
          <Link to="?when=past" aria-current={when === 'past' ? 'page' : undefined} className="min-h-11 rounded-lg bg-white px-4 py-3">
            Past (recordings)
          </Link>
        </nav>
        {sessions.items.length === 0 ? (
          <p className="mt-3 text-sm text-gray-500">{when === 'upcoming' ? 'No sessions planned.' : 'No past sessions yet.'}</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {sessions.items.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                videos={videos}
                captionFiles={captionFiles}
                hosts={hosts}
                upcoming={when === 'upcoming'}
              />
            ))}
          </ul>
        )}
        <Pager param="page" next={sessions.next_cursor} />
      </div>

      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h2 className="text-xl font-bold text-gray-900">Schedule a session or an event</h2>
        <scheduling.Form method="post" className="mt-4 space-y-3" key={sessions.items.length}>
          <input type="hidden" name="intent" value="schedule" />
          <ScheduleFields hosts={hosts} me={me} errors={scheduling.data && !scheduling.data.ok ? scheduling.data.fieldErrors : {}} />
          <Outcome answer={scheduling.data} />
          <Button type="submit" disabled={scheduling.state !== 'idle'}>
            {scheduling.state !== 'idle' ? 'Scheduling...' : 'Schedule'}
          </Button>
        </scheduling.Form>
      </div>

      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h2 className="text-xl font-bold text-gray-900">Your name as members see it</h2>
        <naming.Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="display-name" />
          <Input compact label="Name" name="display_name" defaultValue={myName} required maxLength={TEXT_MAX.displayName} />
          <Button type="submit" size="sm" disabled={naming.state !== 'idle'}>
            Save name
          </Button>
        </naming.Form>
        <Outcome answer={naming.data} />
      </div>
    </section>
  );
}
