import { useState } from 'react';
import { useFetcher, useSearchParams } from 'react-router';
import {
  CONTENT_SECTION_KEYS,
  CONTENT_SECTIONS,
  fieldLabel,
  isContentSectionKey,
  isMultilineField,
  type ContentData,
  type ContentSectionKey,
} from '../../../../common/content-sections.ts';
import { useActionAlerts } from '../../../components/admin/use-action-alerts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Select, Textarea } from '../../../components/ui/field.tsx';
import { attempt, formErrors, orRequestFailed, readForm, unlessRequestFailed, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/content-tab';

const sectionFrom = (value: string | null): ContentSectionKey => (value && isContentSectionKey(value) ? value : 'homepage_hero');

// SPEC 4: the selected section's stored values; the section is in the URL, so a reload keeps it.
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services } = staffPageServices(context);
  const section = sectionFrom(new URL(request.url).searchParams.get('section'));
  return { section, values: await services.content.get(section) };
}

// SPEC 7: the whole section is saved; the service refuses a save that leaves out any field.
export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const formData = await readForm(request);
  if (!formData) return unreadableForm();
  const { section, ...fields } = Object.fromEntries(formData);
  if (typeof section !== 'string') return formErrors('Choose a section.');
  const saved = await attempt(() => services.content.save(viewer, section, fields));
  if (!saved.ok) return saved.refusal;
  return { ok: true as const };
}

// In the browser, a request that fails on the way still gets its alert (SPEC 8).
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => orRequestFailed(() => serverAction());
export const shouldRevalidate = unlessRequestFailed;

/** How to fill in the sections the spec does not describe. */
const SECTION_NOTES: Partial<Record<ContentSectionKey, string>> = {
  help_center:
    'In each topic, write one question per block: the question on the first line, its answer below it, and a blank line before the next question.' +
    ' Left empty, a topic shows the answers the site came with.',
  site_photos:
    "Upload a photo in the File Upload tab (as a public image), then paste its address (/api/files/…) here. Left empty, a drawn portrait with the person's initials shows.",
  mobile_app: 'The addresses of the app on the App Store and Google Play. Leave them empty to have the buttons install the web app.',
};
const sectionNote = (section: ContentSectionKey) => SECTION_NOTES[section];

const SECTION_OPTIONS = CONTENT_SECTION_KEYS.map((key) => ({ value: key, label: CONTENT_SECTIONS[key].label }));
const ALERTS = { success: () => 'Content saved successfully!', networkError: 'Error saving content' };

type SaveFetcher = ReturnType<typeof useFetcher<typeof clientAction>>;

/** The fields of one section, as stored when it loaded; remounted whenever the stored values change. */
function SectionEditor({ section, stored, fetcher }: { section: ContentSectionKey; stored: ContentData; fetcher: SaveFetcher }) {
  const [values, setValues] = useState<ContentData>(() =>
    Object.fromEntries(CONTENT_SECTIONS[section].fields.map((field) => [field, stored[field] ?? ''])),
  );
  const saving = fetcher.state !== 'idle';
  return (
    <div className="mt-4 grid gap-6 lg:grid-cols-2">
      <fetcher.Form method="post" className="min-w-0 space-y-4">
        <input type="hidden" name="section" value={section} />
        {CONTENT_SECTIONS[section].fields.map((field) => {
          const props = {
            label: fieldLabel(field),
            name: field,
            value: values[field] ?? '',
            onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value })),
            compact: true,
          };
          return isMultilineField(field) ? <Textarea key={field} rows={4} {...props} /> : <Input key={field} {...props} />;
        })}
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </fetcher.Form>
      <div className="min-w-0">
        <h3 className="font-semibold text-gray-900">Preview</h3>
        <pre
          className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded-xl bg-gray-900 p-4 text-xs text-green-200"
          data-testid="content-preview"
        >
          {JSON.stringify(values, null, 2)}
        </pre>
      </div>
    </div>
  );
}

export default function ContentTab({ loaderData }: Route.ComponentProps) {
  const { section, values } = loaderData;
  const [, setSearchParams] = useSearchParams();
  // Held here, not in the editor, so the alert survives the editor's remount after the save.
  const fetcher = useFetcher<typeof clientAction>();
  useActionAlerts(fetcher, ALERTS);
  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Edit Page Content</h2>
      <form method="get" className="mt-4 max-w-md">
        {/* SPEC 4: changing the section reloads its stored values. */}
        <Select
          compact
          id="content-section"
          label="Section"
          name="section"
          value={section}
          options={SECTION_OPTIONS}
          onChange={(event) => setSearchParams({ section: event.target.value })}
        />
        <noscript>
          <button type="submit" className="mt-2 text-sm font-semibold text-brand-800">
            Show section
          </button>
        </noscript>
      </form>
      {sectionNote(section) && <p className="mt-3 max-w-2xl text-sm text-gray-600">{sectionNote(section)}</p>}
      <SectionEditor key={`${section}:${JSON.stringify(values)}`} section={section} stored={values} fetcher={fetcher} />
    </section>
  );
}
