import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { z } from 'zod';
import {
  RESOURCE_TYPE_LABEL,
  RESOURCE_TYPES,
  ResourceInput,
  ResourceParams,
  type StaffResource,
} from '../../../../common/resources.contract.ts';
import { TIER_LABEL, TIERS } from '../../../../common/tiers.ts';
import { formValues, libraryChoices, TitleAndDescription, type FieldErrors } from '../../../components/admin/course-forms.tsx';
import { TierBadge } from '../../../components/catalogue/tier-badge.tsx';
import { EditDetails } from '../../../components/admin/edit-details.tsx';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { Input, Select } from '../../../components/ui/field.tsx';
import { attempt, formErrors, readForm, refusedBy, unreadableForm } from '../../../lib/forms.ts';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/resources-tab';
import { TEXT_MAX } from '../../../../common/limits.ts';

// A page of resources in the library's order; the next is in the address (?before=), so paging works without JavaScript.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const [page, files] = await Promise.all([
    services.resourceAuthoring.staffList(viewer, listPageOf(request)),
    services.files.choices(viewer),
  ]);
  return { resources: page.items, next: page.next_cursor, files: libraryChoices(files).attachments };
}

const ResourceId = z.object({ resourceId: ResourceParams.shape.id });

export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  const intent = form.get('intent');
  if (intent === 'remove') {
    const target = ResourceId.safeParse({ resourceId: form.get('resourceId') });
    if (!target.success) return formErrors(target.error.issues[0]?.message ?? 'Choose a resource.');
    const removed = await attempt(() => services.resourceAuthoring.remove(viewer, target.data.resourceId));
    return removed.ok ? { ok: true as const, message: 'Resource removed.' } : removed.refusal;
  }
  const input = ResourceInput.safeParse(formValues(form, { nullable: ['file_id'] }));
  if (!input.success) return refusedBy(input.error);
  if (intent === 'create') {
    const created = await attempt(() => services.resourceAuthoring.create(viewer, input.data));
    return created.ok ? { ok: true as const, message: `“${created.value.title}” added.` } : created.refusal;
  }
  const target = ResourceId.safeParse({ resourceId: form.get('resourceId') });
  if (!target.success) return formErrors(target.error.issues[0]?.message ?? 'Choose a resource.');
  const updated = await attempt(() => services.resourceAuthoring.update(viewer, target.data.resourceId, input.data));
  return updated.ok ? { ok: true as const, message: 'Resource saved.' } : updated.refusal;
}

type LibraryFile = Awaited<ReturnType<typeof loader>>['files'][number];

function ResourceFields({ resource, files, errors = {} }: { resource?: StaffResource; files: LibraryFile[]; errors?: FieldErrors }) {
  const currentMissing = resource?.file_id && !files.some((file) => file.id === resource.file_id);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TitleAndDescription
        values={resource}
        max={{ title: TEXT_MAX.resourceTitle, description: TEXT_MAX.resourceDescription }}
        errors={errors}
      />
      <Select
        compact
        label="Type"
        name="resource_type"
        defaultValue={resource?.resource_type ?? 'ebook'}
        options={RESOURCE_TYPES.map((value) => ({ value, label: RESOURCE_TYPE_LABEL[value] }))}
        error={errors.resource_type}
      />
      <Select
        compact
        label="Tier required"
        name="tier_required"
        defaultValue={resource?.tier_required ?? 'bronze'}
        options={TIERS.map((value) => ({ value, label: TIER_LABEL[value] }))}
        error={errors.tier_required}
      />
      <Select
        compact
        label="File from the library"
        name="file_id"
        defaultValue={resource?.file_id ?? ''}
        options={[
          { value: '', label: 'None' },
          ...(currentMissing ? [{ value: resource.file_id!, label: resource.file_name ?? 'Current file' }] : []),
          ...files.map((file) => ({ value: file.id, label: file.filename })),
        ]}
        error={errors.file_id}
      />
      <Input
        compact
        label="Or a link (https://)"
        name="download_url"
        type="url"
        defaultValue={resource?.link}
        maxLength={TEXT_MAX.link}
        error={errors.download_url}
      />
      <p className="text-xs text-gray-500 sm:col-span-2">
        A file is served only to members whose tier reaches the one required. Daily tips are text: no file or link.
      </p>
    </div>
  );
}

function ResourceItem({ resource, files }: { resource: StaffResource; files: LibraryFile[] }) {
  const fetcher = useFetcher<typeof action>();
  const answer = fetcher.data;
  return (
    <li className="rounded-xl border border-gray-200 bg-white p-4" data-resource-id={resource.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-gray-900">{resource.title}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-gray-600">
            <TierBadge tier={resource.tier_required} />
            <span>{RESOURCE_TYPE_LABEL[resource.resource_type]}</span>
            <span className="break-all">· {resource.file_name ?? (resource.link || 'no download')}</span>
          </p>
        </div>
        <ConfirmedForm fetcher={fetcher} question={`Remove “${resource.title}”?`} fields={{ intent: 'remove', resourceId: resource.id }}>
          <button
            type="submit"
            aria-label={`Remove ${resource.title}`}
            className="rounded-lg border border-red-700 px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50"
          >
            Remove
          </button>
        </ConfirmedForm>
      </div>
      <EditDetails
        fetcher={fetcher}
        summary="Edit resource"
        fields={{ intent: 'update', resourceId: resource.id }}
        submitLabel="Save resource"
      >
        <ResourceFields resource={resource} files={files} errors={answer && !answer.ok ? answer.fieldErrors : {}} />
      </EditDetails>
    </li>
  );
}

export default function ResourcesTab({ loaderData }: Route.ComponentProps) {
  const { resources, next, files } = loaderData;
  const adding = useFetcher<typeof action>();
  const added = adding.data;
  // The form empties once a resource is in (it may land on another page of the list).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (adding.state === 'idle' && added?.ok) form.current?.reset();
  }, [adding.state, added]);
  return (
    <section className="space-y-8">
      <div>
        <h2 className="text-xl font-bold text-gray-900">Resources</h2>
        {resources.length === 0 ? (
          <p className="mt-3 text-sm text-gray-500">No resources yet.</p>
        ) : (
          <ul className="mt-4 space-y-3">
            {resources.map((resource) => (
              <ResourceItem key={resource.id} resource={resource} files={files} />
            ))}
          </ul>
        )}
        <Pager param="before" next={next} />
      </div>
      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h2 className="text-xl font-bold text-gray-900">New resource</h2>
        <adding.Form ref={form} method="post" className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="create" />
          <ResourceFields files={files} errors={added && !added.ok ? added.fieldErrors : {}} />
          <Outcome answer={added} />
          <Button type="submit" disabled={adding.state !== 'idle'}>
            {adding.state !== 'idle' ? 'Adding...' : 'Add resource'}
          </Button>
        </adding.Form>
      </div>
    </section>
  );
}
