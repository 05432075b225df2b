import { useFetcher } from 'react-router';
import { AutomationInput, AutomationParams, type AutomationView } from '../../../../common/lifecycle.contract.ts';
import { LIFECYCLE } from '../../../../common/lifecycle-terms.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Textarea } from '../../../components/ui/field.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/automations-tab';

// Lifecycle mail (issue 34, part 2): the mails the site sends by itself, each with how it did over
// the last 90 days. Staff who write broadcasts read them; owners switch each on or off and change
// its text, its delay and (win-back) its offer code.

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  return services.lifecycle.list(viewer);
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  if (form.get('intent') !== 'save') return formErrors('Choose what to do.');
  const key = AutomationParams.safeParse({ key: form.get('key') });
  if (!key.success) return refusedBy(key.error);
  const input = AutomationInput.safeParse({
    enabled: form.get('enabled') === 'on',
    subject: form.get('subject') ?? '',
    body: form.get('body') ?? '',
    delay_days: form.get('delay_days'),
    offer_code: form.get('offer_code') ?? '',
  });
  if (!input.success) return refusedBy(input.error);
  const saved = await attempt(() => services.lifecycle.save(viewer, key.data.key, input.data));
  return saved.ok ? { ok: true as const, message: `${saved.value.label}: saved, ${saved.value.enabled ? 'on' : 'off'}.` } : saved.refusal;
}

const FIGURES = [
  ['sent', 'Sent'],
  ['opened', 'Opened (a link followed)'],
  ['returned', 'Came back'],
  ['upgraded', 'Upgraded'],
  ['renewed', 'Paying again'],
] as const;

function Figures({ automation }: { automation: AutomationView }) {
  return (
    <table className="mt-3 w-full text-left text-sm">
      <caption className="sr-only">
        {automation.label}: the last {LIFECYCLE.statsDays} days
      </caption>
      <thead>
        <tr className="text-gray-700">
          {FIGURES.map(([key, label]) => (
            <th key={key} scope="col" className="pr-3 font-semibold">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr className="text-lg font-bold text-gray-900">
          {FIGURES.map(([key]) => (
            <td key={key} className="pr-3">
              {automation.figures[key]}
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}

function AutomationForm({ automation }: { automation: AutomationView }) {
  const fetcher = useFetcher<typeof action>();
  const answer = fetcher.data;
  const errors = answer && !answer.ok ? answer.fieldErrors : {};
  return (
    <fetcher.Form method="post" className="mt-4 grid gap-3">
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="key" value={automation.key} />
      <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-gray-800">
        <input type="checkbox" name="enabled" defaultChecked={automation.enabled} className="h-5 w-5" />
        Send this mail
      </label>
      <Input
        label="Subject"
        name="subject"
        maxLength={LIFECYCLE.subjectMax}
        defaultValue={automation.subject}
        required
        error={errors.subject}
      />
      <Textarea
        label="Message ({name} is the member's name; [label](/page) makes a link)"
        name="body"
        rows={6}
        maxLength={LIFECYCLE.bodyMax}
        defaultValue={automation.body}
        required
        error={errors.body}
      />
      <Input
        label={`Delay: ${automation.delay_label}`}
        name="delay_days"
        type="number"
        min={0}
        max={LIFECYCLE.maxDelayDays}
        defaultValue={automation.delay_days}
        required
        error={errors.delay_days}
      />
      {automation.key === 'win-back' && (
        <Input
          label="Offer code (optional)"
          name="offer_code"
          maxLength={40}
          defaultValue={automation.offer_code ?? ''}
          error={errors.offer_code}
        />
      )}
      <div>
        <Outcome answer={answer} />
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          Save {automation.label}
        </Button>
      </div>
    </fetcher.Form>
  );
}

export default function AutomationsTab({ loaderData }: Route.ComponentProps) {
  const { automations, may_edit } = loaderData;
  return (
    <section className="space-y-6">
      <div>
        <h2 className="text-xl font-bold text-gray-900">Automations</h2>
        <p className="mt-1 text-sm text-gray-700">
          Mails the site sends by itself, once to each member for each occasion, never to members who unsubscribed or turned off messages
          from the team. Figures are for the last {LIFECYCLE.statsDays} days; what followed counts within {LIFECYCLE.followedWithinDays}{' '}
          days of the mail.
        </p>
      </div>
      <ul className="space-y-4">
        {automations.map((automation) => (
          <li key={automation.key} className="rounded-2xl bg-white p-4 sm:p-6">
            <h3 className="text-lg font-bold text-gray-900">
              {automation.label}{' '}
              <span className={automation.enabled ? 'text-sm font-semibold text-green-800' : 'text-sm font-semibold text-gray-700'}>
                ({automation.enabled ? 'on' : 'off'})
              </span>
            </h3>
            <p className="text-sm text-gray-700">
              {automation.delay_days} {automation.delay_label}: “{automation.subject}”
            </p>
            <Figures automation={automation} />
            {may_edit ? (
              <details>
                <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-800">
                  Edit {automation.label}
                </summary>
                <AutomationForm automation={automation} />
              </details>
            ) : (
              <p className="mt-3 whitespace-pre-line text-sm text-gray-800">{automation.body}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
