import { Link, useFetcher } from 'react-router';
import { z } from 'zod';
import { formatDate } from '../../../common/format.ts';
import { LicenceInput, OutsideCeInput, type CeEntryView, type LicenceStanding } from '../../../common/licence.contract.ts';
import { CE_TOPIC_LABEL, CE_TOPICS, LICENCE_TYPE_LABEL, LICENCE_TYPES, STATE_CODES, US_STATES } from '../../../common/licence-terms.ts';
import { LICENCES } from '../../../common/limits.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../../common/time-zones.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmedForm } from '../../components/ui/confirmed-form.tsx';
import { Input, Select } from '../../components/ui/field.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../lib/forms.ts';
import { pageMeta } from '../../lib/meta.ts';
import { memberPageServices, pageServices } from '../../lib/page-context.ts';
import { useResultToast } from '../../lib/use-result-toast.ts';
import type { Route } from './+types/licence';

// The member's continuing-education ledger (issue 33, part 4): the licences they hold, each with its
// hours done and missing per required topic until renewal, the entries that count (courses completed
// here, CE taken elsewhere with its certificate), and 'Download for the commission'.

export const meta = () =>
  pageMeta({ title: 'My Licence', description: 'Your licences, the continuing education you did and what is left before renewal.' });

const MorePage = z.object({ state: z.enum(STATE_CODES), after: z.string().max(200) });

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer, member } = memberPageServices(context);
  const licences = await services.licence.ledger(viewer);
  const query = new URL(request.url).searchParams;
  const more = MorePage.safeParse({ state: query.get('state'), after: query.get('after') });
  const entries = await Promise.all(
    licences.map(async (licence) => {
      const after = more.success && more.data.state === licence.state ? more.data.after : undefined;
      // A page link gone stale (or made up) shows the first page rather than failing the ledger.
      const page = await attempt(() => services.licence.entries(viewer, licence.state, after));
      return [licence.state, page.ok ? page.value : await services.licence.entries(viewer, licence.state)] as const;
    }),
  );
  return { licences, entries: Object.fromEntries(entries), today: localDateOf(new Date(), member.timeZone ?? DEFAULT_TIME_ZONE) };
}

const Id = z.object({ id: z.uuid('Choose a licence or an entry') });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = pageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const values = Object.fromEntries([...form].filter(([, value]) => typeof value === 'string')) as Record<string, string>;
  switch (values.intent) {
    case 'add-licence':
    case 'update-licence': {
      const input = LicenceInput.safeParse(values);
      if (!input.success) return refusedBy(input.error);
      if (values.intent === 'add-licence') {
        const done = await attempt(() => services.licence.addLicence(viewer, input.data));
        return done.ok ? { ok: true as const, message: `Your ${done.value.state_name} licence is recorded.` } : done.refusal;
      }
      const id = Id.safeParse(values);
      if (!id.success) return refusedBy(id.error);
      const done = await attempt(() => services.licence.updateLicence(viewer, id.data.id, input.data));
      return done.ok ? { ok: true as const, message: 'Licence saved.' } : done.refusal;
    }
    case 'remove-licence': {
      const id = Id.safeParse(values);
      if (!id.success) return refusedBy(id.error);
      const done = await attempt(() => services.licence.removeLicence(viewer, id.data.id));
      return done.ok ? { ok: true as const, message: 'Licence removed.' } : done.refusal;
    }
    case 'add-entry': {
      const input = OutsideCeInput.safeParse(values);
      if (!input.success) return refusedBy(input.error);
      const file = form.get('certificate');
      if (!(file instanceof File) || file.size === 0)
        return formErrors('Add the certificate you were given (a PDF or a photo).', 400, { certificate: 'Choose the certificate file' });
      const done = await attempt(async () =>
        services.licence.addOutsideEntry(viewer, input.data, { filename: file.name, content: Buffer.from(await file.arrayBuffer()) }),
      );
      return done.ok
        ? { ok: true as const, message: `${done.value.hours} hours of ${done.value.topic_label} added to your ledger.` }
        : done.refusal;
    }
    case 'remove-entry': {
      const id = Id.safeParse(values);
      if (!id.success) return refusedBy(id.error);
      const done = await attempt(() => services.licence.removeOutsideEntry(viewer, id.data.id));
      return done.ok ? { ok: true as const, message: 'Entry removed.' } : done.refusal;
    }
    default:
      return formErrors('Choose what to do.');
  }
}

const TAP = 'min-h-11';
const STATE_OPTIONS = STATE_CODES.map((code) => ({ value: code, label: US_STATES[code] }));
const TYPE_OPTIONS = LICENCE_TYPES.map((type) => ({ value: type, label: LICENCE_TYPE_LABEL[type] }));
const TOPIC_OPTIONS = CE_TOPICS.map((topic) => ({ value: topic, label: CE_TOPIC_LABEL[topic] }));
const hours = (value: number) => `${value} ${value === 1 ? 'hour' : 'hours'}`;

function Standing({ licence }: { licence: LicenceStanding }) {
  const { requirement } = licence;
  if (!requirement) {
    return (
      <p className="text-sm text-gray-700">
        {hours(licence.hours_done)} recorded since {formatDate(licence.cycle_starts_on)}. We do not keep {licence.state_name}’s requirement
        yet: check your commission’s site for the hours you need.
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <p className="text-gray-900">
        <strong>{hours(licence.hours_done)}</strong> of {hours(requirement.hours_per_cycle)} done
        {licence.hours_missing > 0 ? (
          <>
            , <strong>{hours(licence.hours_missing)} to go</strong> {licence.on_track ? '(on track)' : '(behind: time to plan your hours)'}
          </>
        ) : (
          ': every hour of this cycle is done'
        )}
        .
      </p>
      {licence.topics.length > 0 && (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Required topics for {licence.state_name}</caption>
          <thead>
            <tr className="text-gray-700">
              <th scope="col" className="py-1 font-semibold">
                Required topic
              </th>
              <th scope="col" className="py-1 font-semibold">
                Done
              </th>
              <th scope="col" className="py-1 font-semibold">
                Missing
              </th>
            </tr>
          </thead>
          <tbody>
            {licence.topics.map((topic) => (
              <tr key={topic.topic} className="border-t border-gray-200">
                <th scope="row" className="py-1 font-normal">
                  {topic.label} (at least {topic.required})
                </th>
                <td className="py-1">{topic.done}</td>
                <td className="py-1">{topic.missing === 0 ? 'Done' : topic.missing}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {requirement.note && <p className="text-sm text-gray-700">{requirement.note}</p>}
      {requirement.commission_address && <p className="text-sm text-gray-700">Commission: {requirement.commission_address}</p>}
      {requirement.check_with_commission && (
        <p className="text-sm text-gray-700">We are confirming this requirement with the commission: check it there too.</p>
      )}
    </div>
  );
}

function Entries({ licence, page }: { licence: LicenceStanding; page: { items: CeEntryView[]; next_cursor: string | null } }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  if (page.items.length === 0)
    return <p className="text-sm text-gray-700">No continuing education recorded for {licence.state_name} yet.</p>;
  return (
    <div>
      <ul className="divide-y divide-gray-200" aria-label={`Continuing education for ${licence.state_name}`}>
        {page.items.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm">
            <div>
              <p className="font-semibold text-gray-900">{entry.course_name}</p>
              <p className="text-gray-700">
                {formatDate(entry.completed_on)} · {entry.provider} · {entry.topic_label} · {hours(entry.hours)}
                {entry.approval_number && ` · approval ${entry.approval_number}`}
              </p>
              {entry.certificate_code && (
                <Link to={`/certificates/${entry.certificate_code}`} className={`inline-flex items-center text-brand-800 underline ${TAP}`}>
                  Certificate {entry.certificate_code}
                </Link>
              )}
              {entry.certificate_file && (
                <a href={entry.certificate_file.url} className={`inline-flex items-center text-brand-800 underline ${TAP}`}>
                  Certificate: {entry.certificate_file.filename}
                </a>
              )}
            </div>
            {entry.source === 'outside' && (
              <ConfirmedForm
                fetcher={fetcher}
                question={`Remove “${entry.course_name}” from your ledger?`}
                fields={{ intent: 'remove-entry', id: entry.id }}
              >
                <Button type="submit" size="sm" variant="ghost" className={TAP}>
                  Remove
                </Button>
              </ConfirmedForm>
            )}
          </li>
        ))}
      </ul>
      {page.next_cursor && (
        <Link
          to={`?state=${licence.state}&after=${encodeURIComponent(page.next_cursor)}`}
          className={`inline-flex items-center text-brand-800 underline ${TAP}`}
        >
          Older entries for {licence.state_name}
        </Link>
      )}
    </div>
  );
}

function OutsideCeForm({ licence, today }: { licence: LicenceStanding; today: string }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  return (
    <details className="rounded-md border border-gray-200 p-3">
      <summary className={`flex cursor-pointer items-center font-semibold text-brand-800 ${TAP}`}>Add CE taken elsewhere</summary>
      <fetcher.Form
        method="post"
        encType="multipart/form-data"
        className="mt-3 grid gap-3 sm:grid-cols-2"
        key={fetcher.data?.ok ? 'sent' : 'open'}
      >
        <input type="hidden" name="intent" value="add-entry" />
        <input type="hidden" name="state" value={licence.state} />
        <Input label="Provider" name="provider" maxLength={150} required error={errors.provider} />
        <Input label="Course name" name="course_name" maxLength={200} required error={errors.course_name} />
        <Input label="Hours" name="hours" type="number" min={0.1} max={LICENCES.maxEntryHours} step={0.1} required error={errors.hours} />
        <Select label="Topic" name="topic" defaultValue="elective" options={TOPIC_OPTIONS} error={errors.topic} />
        <Input label="Completed on" name="completed_on" type="date" max={today} defaultValue={today} required error={errors.completed_on} />
        <Input
          label={`Certificate (PDF, JPEG or PNG, up to ${LICENCES.certificateMaxBytes / 1024 / 1024} MB)`}
          name="certificate"
          type="file"
          accept=".pdf,.jpg,.jpeg,.png"
          required
          error={errors.certificate}
        />
        <div className="sm:col-span-2">
          <Button type="submit" className={TAP} disabled={fetcher.state !== 'idle'}>
            Add to my ledger
          </Button>
        </div>
      </fetcher.Form>
    </details>
  );
}

function LicenceFields({ licence, today, errors }: { licence?: LicenceStanding; today: string; errors: Record<string, string> }) {
  return (
    <>
      <Select label="State" name="state" defaultValue={licence?.state ?? 'TX'} options={STATE_OPTIONS} error={errors.state} />
      <Select
        label="Licence type"
        name="licence_type"
        defaultValue={licence?.licence_type ?? 'salesperson'}
        options={TYPE_OPTIONS}
        error={errors.licence_type}
      />
      <Input
        label="Licence number (only you see it)"
        name="licence_number"
        defaultValue={licence?.licence_number}
        maxLength={40}
        autoComplete="off"
        error={errors.licence_number}
      />
      <Input
        label="Renews on"
        name="renews_on"
        type="date"
        min={today}
        defaultValue={licence?.renews_on}
        required
        error={errors.renews_on}
      />
    </>
  );
}

function LicenceCard({
  licence,
  page,
  today,
}: {
  licence: LicenceStanding;
  page: { items: CeEntryView[]; next_cursor: string | null };
  today: string;
}) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  const base = `/api/licence/licences/${licence.id}`;
  return (
    <Card as="li" className="space-y-4 p-5" aria-labelledby={`licence-${licence.state}`}>
      <div>
        <h2 id={`licence-${licence.state}`} className="text-lg font-bold text-gray-900">
          {licence.state_name} {LICENCE_TYPE_LABEL[licence.licence_type].toLowerCase()} licence
        </h2>
        <p className="text-sm text-gray-700">
          {licence.licence_number && <>Number {licence.licence_number} · </>}
          Renews {formatDate(licence.renews_on, 'long')} (
          {licence.days_to_renewal >= 0 ? `in ${licence.days_to_renewal} days` : 'date passed: set the next one'})
        </p>
      </div>
      <Standing licence={licence} />
      <div className="flex flex-wrap gap-3">
        <a
          href={`${base}/transcript.pdf`}
          className={`inline-flex items-center rounded-md bg-brand-800 px-4 font-semibold text-white ${TAP}`}
        >
          Download for the commission (PDF)
        </a>
        <a
          href={`${base}/certificates.zip`}
          className={`inline-flex items-center rounded-md border border-brand-800 px-4 font-semibold text-brand-800 ${TAP}`}
        >
          Certificates (zip)
        </a>
      </div>
      <h3 className="font-semibold text-gray-900">This cycle’s continuing education</h3>
      <Entries licence={licence} page={page} />
      <OutsideCeForm licence={licence} today={today} />
      <details className="rounded-md border border-gray-200 p-3">
        <summary className={`flex cursor-pointer items-center font-semibold text-brand-800 ${TAP}`}>Change or remove this licence</summary>
        <fetcher.Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2">
          <input type="hidden" name="intent" value="update-licence" />
          <input type="hidden" name="id" value={licence.id} />
          <LicenceFields licence={licence} today={today} errors={errors} />
          <div className="sm:col-span-2">
            <Button type="submit" className={TAP} disabled={fetcher.state !== 'idle'}>
              Save licence
            </Button>
          </div>
        </fetcher.Form>
        <ConfirmedForm
          fetcher={fetcher}
          question={`Remove your ${licence.state_name} licence? Its CE entries stay in case you add it again.`}
          fields={{ intent: 'remove-licence', id: licence.id }}
        >
          <Button type="submit" size="sm" variant="ghost" className={`${TAP} mt-2`}>
            Remove licence
          </Button>
        </ConfirmedForm>
      </details>
    </Card>
  );
}

function NewLicence({ today, full }: { today: string; full: boolean }) {
  const fetcher = useFetcher<typeof action>();
  useResultToast(fetcher);
  const errors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : {};
  return (
    <Card as="section" className="space-y-3 p-5" aria-labelledby="new-licence">
      <h2 id="new-licence" className="text-lg font-bold text-gray-900">
        Add a licence
      </h2>
      {full && <p className="text-sm text-gray-700">You have recorded {LICENCES.maxPerMember} licences: remove one to add another.</p>}
      <fetcher.Form method="post" className="grid gap-3 sm:grid-cols-2" key={fetcher.data?.ok ? 'sent' : 'open'}>
        <input type="hidden" name="intent" value="add-licence" />
        <LicenceFields today={today} errors={errors} />
        <div className="sm:col-span-2">
          <Button type="submit" className={TAP} disabled={fetcher.state !== 'idle' || full}>
            Add licence
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}

export default function LicencePage({ loaderData }: Route.ComponentProps) {
  const { licences, entries, today } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">My Licence</h1>
        <p className="mt-1 text-gray-700">
          Your continuing education in one place: courses you complete here count in the states that approve them, and you can add what you
          took elsewhere, with its certificate, ready for the commission.
        </p>
      </div>
      {licences.length === 0 ? (
        <p className="text-gray-700">Add the licence you hold to see the hours you need before it renews.</p>
      ) : (
        <ul className="space-y-4">
          {licences.map((licence) => (
            <LicenceCard
              key={licence.id}
              licence={licence}
              page={entries[licence.state] ?? { items: [], next_cursor: null }}
              today={today}
            />
          ))}
        </ul>
      )}
      <NewLicence today={today} full={licences.length >= LICENCES.maxPerMember} />
    </div>
  );
}
