import { useState } from 'react';
import { useFetcher } from 'react-router';
import { z } from 'zod';
import { blocksFor, parseBroadcast } from '../../../../common/broadcast-markup.ts';
import { BroadcastInput, type StaffBroadcast } from '../../../../common/broadcasts.contract.ts';
import { formatDateTime } from '../../../../common/format.ts';
import { BROADCASTS, TEXT_MAX } from '../../../../common/limits.ts';
import { DEFAULT_TIME_ZONE, instantOf } from '../../../../common/time-zones.ts';
import { TIER_LABEL, TIERS, type Tier } from '../../../../common/tiers.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { BroadcastBlocks } from '../../../components/broadcasts/broadcast-blocks.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Select, Textarea } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/broadcasts-tab';

// Staff write a broadcast to chosen tiers, preview it as each tier gets it, mail themselves a test,
// and send it now or at a time (New York time); the minute job sends it, once per member.

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const [page, courses, teams] = await Promise.all([
    services.broadcasts.list(viewer, listPageOf(request)),
    services.courses.list(),
    services.broadcasts.teamChoices(viewer),
  ]);
  return {
    broadcasts: page.items,
    next: page.next_cursor,
    courses: courses.map((course) => ({ value: course.id, label: course.title })),
    teams: teams.map((team) => ({ value: team.id, label: team.name })),
  };
}

const Target = z.object({ broadcastId: z.uuid('Choose a broadcast') });
const LocalMoment = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Choose a date and time to send it');

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const intent = form.get('intent');
  if (intent === 'create') {
    const input = BroadcastInput.safeParse({
      subject: form.get('subject'),
      body: form.get('body'),
      audience: form.getAll('audience'),
      course_id: form.get('course_id') || null,
      team_id: form.get('team_id') || null,
      inactive_days: form.get('inactive_days') || null,
    });
    if (!input.success) return refusedBy(input.error);
    const done = await attempt(() => services.broadcasts.create(viewer, input.data));
    return done.ok ? { ok: true as const, message: 'Saved as a draft: preview it, test it, then send it.' } : done.refusal;
  }
  const target = Target.safeParse({ broadcastId: form.get('broadcastId') });
  if (!target.success) return formErrors('Choose a broadcast.');
  const id = target.data.broadcastId;
  if (intent === 'test') {
    const done = await attempt(() => services.broadcasts.sendTest(viewer, id));
    return done.ok ? { ok: true as const, message: 'A test is on its way to your address.' } : done.refusal;
  }
  if (intent === 'send') {
    const at = form.get('send_at');
    let sendAt: string | null = null;
    if (typeof at === 'string' && at !== '') {
      const moment = LocalMoment.safeParse(at);
      if (!moment.success) return refusedBy(moment.error);
      const [date, time] = moment.data.split('T') as [string, string];
      const [year, month, day] = date.split('-').map(Number) as [number, number, number];
      const [hour, minute] = time.split(':').map(Number) as [number, number];
      sendAt = instantOf({ year, month, day, hour, minute }, DEFAULT_TIME_ZONE).toISOString();
    }
    const done = await attempt(() => services.broadcasts.send(viewer, id, { send_at: sendAt }));
    return done.ok
      ? { ok: true as const, message: sendAt ? 'Scheduled: it goes out at the time chosen.' : 'Sending: it goes out within a minute.' }
      : done.refusal;
  }
  return formErrors('Choose what to do with the broadcast.');
}

const STATUS_LABEL = { draft: 'Draft', scheduled: 'Scheduled', sending: 'Sending', sent: 'Sent' } as const;

function Preview({ body, audience }: { body: string; audience: Tier[] }) {
  const [tier, setTier] = useState<Tier>(audience[0] ?? 'free');
  let blocks;
  try {
    blocks = blocksFor(parseBroadcast(body), tier);
  } catch (error) {
    return <p className="text-sm text-red-700">{(error as Error).message}</p>;
  }
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2" role="group" aria-label="Preview as">
        {audience.map((each) => (
          <button
            key={each}
            type="button"
            onClick={() => setTier(each)}
            aria-pressed={tier === each}
            className={`min-h-11 rounded-lg px-3 text-sm font-semibold ${tier === each ? 'bg-brand-800 text-white' : 'bg-white ring-1 ring-gray-200'}`}
          >
            As a {TIER_LABEL[each]} member
          </button>
        ))}
      </div>
      <div className="rounded-lg border border-gray-200 bg-white p-4">
        <BroadcastBlocks blocks={blocks} />
      </div>
    </div>
  );
}

function BroadcastItem({ broadcast }: { broadcast: StaffBroadcast }) {
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== 'idle';
  return (
    <li className="space-y-3 rounded-xl border border-gray-200 bg-white p-4" data-broadcast-id={broadcast.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-gray-900">{broadcast.subject}</p>
          <p className="text-xs text-gray-600">
            {STATUS_LABEL[broadcast.status]} · to {broadcast.audience.map((tier) => TIER_LABEL[tier]).join(', ')}
            {broadcast.course_id && ` enrolled in ${broadcast.course_id}`}
            {broadcast.inactive_days && ` not seen for ${broadcast.inactive_days} days`} · {broadcast.sent_count} sent ·{' '}
            {broadcast.delivered_count} delivered · {broadcast.failed_count} failed · {broadcast.unsubscribed_count} unsubscribed ·{' '}
            {broadcast.clicks} clicks
            {broadcast.send_at && ` · ${formatDateTime(broadcast.send_at)}`} · by {broadcast.created_by}
          </p>
        </div>
      </div>
      <details>
        <summary className="min-h-11 cursor-pointer py-2 text-sm font-semibold text-brand-800">Preview as each tier gets it</summary>
        <Preview body={broadcast.body} audience={broadcast.audience} />
      </details>
      {broadcast.status === 'draft' && (
        <fetcher.Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="broadcastId" value={broadcast.id} />
          <Button type="submit" name="intent" value="test" variant="outline" size="sm" disabled={busy}>
            Send a test to me
          </Button>
          <Input compact label="Send at (New York time, empty for now)" name="send_at" type="datetime-local" />
          <Button type="submit" name="intent" value="send" size="sm" disabled={busy}>
            Send
          </Button>
        </fetcher.Form>
      )}
      <Outcome answer={fetcher.data} />
    </li>
  );
}

export default function BroadcastsTab({ loaderData }: Route.ComponentProps) {
  const { broadcasts, next, courses, teams } = loaderData;
  const writing = useFetcher<typeof action>();
  const errors = writing.data && !writing.data.ok ? writing.data.fieldErrors : {};
  return (
    <div className="space-y-8">
      <section className="space-y-4 rounded-xl bg-white p-5 shadow-sm">
        <h2 className="text-xl font-bold text-gray-900">Write a broadcast</h2>
        <p className="text-sm text-gray-600">
          '## ' starts a heading, [label](https://...) is a link, a line ![description](address) an image from the file library. A section
          between [gold] and [/gold] (or [silver], [bronze]) goes only to members of that tier and above. Members who unsubscribed get
          nothing.
        </p>
        <writing.Form method="post" className="grid gap-3">
          <input type="hidden" name="intent" value="create" />
          <Input compact label="Subject" name="subject" required maxLength={TEXT_MAX.broadcastSubject} error={errors.subject} />
          <Textarea compact label="Text" name="body" rows={10} required maxLength={TEXT_MAX.broadcastBody} error={errors.body} />
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-1 text-sm font-semibold text-gray-800">Goes to</legend>
            {TIERS.map((tier) => (
              <label key={tier} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="checkbox" name="audience" value={tier} className="h-5 w-5" /> {TIER_LABEL[tier]} members
              </label>
            ))}
          </fieldset>
          {errors.audience && <p className="text-sm text-red-700">{errors.audience}</p>}
          <div className="grid gap-3 sm:grid-cols-2">
            <Select
              compact
              label="Only members enrolled in"
              name="course_id"
              defaultValue=""
              options={[{ value: '', label: 'Any course, or none' }, ...courses]}
              error={errors.course_id}
            />
            {teams.length > 0 && (
              <Select
                compact
                label="Only the agents of a team"
                name="team_id"
                defaultValue=""
                options={[{ value: '', label: 'Any member' }, ...teams]}
                error={errors.team_id}
              />
            )}
            <Input
              compact
              label="Only members not seen for (days)"
              name="inactive_days"
              type="number"
              min={1}
              max={BROADCASTS.maxInactiveDays}
              error={errors.inactive_days}
            />
          </div>
          <div>
            <Button type="submit" disabled={writing.state !== 'idle'}>
              Save as a draft
            </Button>
          </div>
          <Outcome answer={writing.data} />
        </writing.Form>
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-bold text-gray-900">Broadcasts</h2>
        {broadcasts.length === 0 ? (
          <p className="text-sm text-gray-600">None yet.</p>
        ) : (
          <ul className="space-y-3">
            {broadcasts.map((broadcast) => (
              <BroadcastItem key={broadcast.id} broadcast={broadcast} />
            ))}
          </ul>
        )}
        <Pager param="before" next={next} />
      </section>
    </div>
  );
}
