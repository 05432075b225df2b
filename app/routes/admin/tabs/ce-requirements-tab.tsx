import { Link, useFetcher } from 'react-router';
import { RequirementInput, RequirementParams, type RequirementView } from '../../../../common/licence.contract.ts';
import {
  CE_TOPIC_LABEL,
  LICENCE_TYPE_LABEL,
  LICENCE_TYPES,
  REQUIRED_TOPIC_CHOICES,
  STATE_CODES,
  US_STATES,
} from '../../../../common/licence-terms.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { Input, Select, Textarea } from '../../../components/ui/field.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/ce-requirements-tab';

// Each state's continuing-education requirement for a licence type, as staff keep it (issue 33,
// part 4): members' ledgers count toward it. A requirement written from public sources stays marked
// 'check with the commission' until someone confirmed it there.

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  return { requirements: await services.licence.requirements(viewer) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const key = RequirementParams.safeParse({ state: form.get('state'), licence_type: form.get('licence_type') });
  if (!key.success) return refusedBy(key.error);
  if (form.get('intent') === 'remove') {
    const removed = await attempt(() => services.licence.removeRequirement(viewer, key.data));
    return removed.ok ? { ok: true as const, message: 'Requirement removed.' } : removed.refusal;
  }
  if (form.get('intent') !== 'save') return formErrors('Choose what to do.');
  const input = RequirementInput.safeParse({
    hours_per_cycle: form.get('hours_per_cycle'),
    cycle_months: form.get('cycle_months'),
    // A topic left empty (or 0) is not required.
    topics: REQUIRED_TOPIC_CHOICES.flatMap((topic) => {
      const hours = String(form.get(`topic_${topic}`) ?? '').trim();
      return hours === '' || Number(hours) === 0 ? [] : [{ topic, min_hours: hours }];
    }),
    note: form.get('note') ?? '',
    commission_address: form.get('commission_address') ?? '',
    check_with_commission: form.get('check_with_commission') === 'on',
  });
  if (!input.success) return refusedBy(input.error);
  const saved = await attempt(() => services.licence.saveRequirement(viewer, key.data, input.data));
  return saved.ok
    ? { ok: true as const, message: `${saved.value.state_name} ${saved.value.licence_type} requirement saved.` }
    : saved.refusal;
}

const STATE_OPTIONS = STATE_CODES.map((code) => ({ value: code, label: US_STATES[code] }));
const TYPE_OPTIONS = LICENCE_TYPES.map((type) => ({ value: type, label: LICENCE_TYPE_LABEL[type] }));

function RequirementForm({ requirement }: { requirement?: RequirementView }) {
  const fetcher = useFetcher<typeof action>();
  const answer = fetcher.data;
  const errors = answer && !answer.ok ? answer.fieldErrors : {};
  const minimum = (topic: string) => requirement?.topics.find((each) => each.topic === topic)?.min_hours;
  return (
    <fetcher.Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2">
      <input type="hidden" name="intent" value="save" />
      {requirement ? (
        <>
          <input type="hidden" name="state" value={requirement.state} />
          <input type="hidden" name="licence_type" value={requirement.licence_type} />
        </>
      ) : (
        <>
          <Select label="State" name="state" defaultValue="TX" options={STATE_OPTIONS} />
          <Select label="Licence type" name="licence_type" defaultValue="salesperson" options={TYPE_OPTIONS} />
        </>
      )}
      <Input
        label="Hours per cycle"
        name="hours_per_cycle"
        type="number"
        min={0.1}
        step={0.1}
        defaultValue={requirement?.hours_per_cycle}
        required
        error={errors.hours_per_cycle}
      />
      <Input
        label="Cycle (months)"
        name="cycle_months"
        type="number"
        min={6}
        max={72}
        defaultValue={requirement?.cycle_months ?? 24}
        required
        error={errors.cycle_months}
      />
      {REQUIRED_TOPIC_CHOICES.map((topic) => (
        <Input
          key={topic}
          label={`${CE_TOPIC_LABEL[topic]}: at least (hours)`}
          name={`topic_${topic}`}
          type="number"
          min={0}
          step={0.1}
          defaultValue={minimum(topic)}
        />
      ))}
      <Input
        label="Commission's address"
        name="commission_address"
        maxLength={300}
        defaultValue={requirement?.commission_address}
        error={errors.commission_address}
      />
      <div className="sm:col-span-2">
        <Textarea label="Note for members" name="note" rows={2} maxLength={1000} defaultValue={requirement?.note} error={errors.note} />
      </div>
      <label className="flex min-h-11 items-center gap-2 text-sm font-medium text-gray-700 sm:col-span-2">
        <input
          type="checkbox"
          name="check_with_commission"
          defaultChecked={requirement?.check_with_commission ?? true}
          className="h-4 w-4"
        />
        To check with the commission (members are told it is not confirmed yet)
      </label>
      <div className="sm:col-span-2">
        <Outcome answer={answer} />
        <Button type="submit" disabled={fetcher.state !== 'idle'}>
          {requirement ? 'Save requirement' : 'Add requirement'}
        </Button>
      </div>
    </fetcher.Form>
  );
}

function RemoveRequirement({ requirement }: { requirement: RequirementView }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <ConfirmedForm
      fetcher={fetcher}
      question={`Remove the ${requirement.state_name} ${requirement.licence_type} requirement? Members' ledgers there show hours without a target.`}
      fields={{ intent: 'remove', state: requirement.state, licence_type: requirement.licence_type }}
    >
      <Button type="submit" size="sm" variant="ghost" className="mt-2 min-h-11">
        Remove requirement
      </Button>
    </ConfirmedForm>
  );
}

export default function CeRequirementsTab({ loaderData }: Route.ComponentProps) {
  const { requirements } = loaderData;
  return (
    <section className="space-y-6">
      <Link
        to="/admin/dashboard/courses"
        className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
      >
        ← All courses
      </Link>
      <div>
        <h2 className="text-xl font-bold text-gray-900">Continuing education requirements</h2>
        <p className="mt-1 text-sm text-gray-600">
          What each state asks of a licence each cycle. Members’ ledgers count their hours toward it and remind them 180, 90 and 30 days
          before renewal.
        </p>
      </div>
      <ul className="space-y-4">
        {requirements.map((requirement) => (
          <li key={`${requirement.state}-${requirement.licence_type}`} className="rounded-2xl bg-white p-4 sm:p-6">
            <h3 className="text-lg font-bold text-gray-900">
              {requirement.state_name}, {LICENCE_TYPE_LABEL[requirement.licence_type].toLowerCase()}
              {requirement.check_with_commission && (
                <span className="ml-2 text-sm font-normal text-amber-800">(to check with the commission)</span>
              )}
            </h3>
            <details>
              <summary className="inline-flex min-h-11 cursor-pointer items-center text-brand-800">
                {requirement.hours_per_cycle} hours every {requirement.cycle_months} months
                {requirement.topics.length > 0 &&
                  `, of which ${requirement.topics.map((topic) => `${topic.label} ${topic.min_hours}`).join(', ')}`}
              </summary>
              <RequirementForm requirement={requirement} />
              <RemoveRequirement requirement={requirement} />
            </details>
          </li>
        ))}
        {requirements.length === 0 && <li className="text-gray-600">No requirement kept yet.</li>}
      </ul>
      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h3 className="text-lg font-bold text-gray-900">Add a state’s requirement</h3>
        <RequirementForm />
      </div>
    </section>
  );
}
