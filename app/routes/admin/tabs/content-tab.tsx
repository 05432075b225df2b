import { useEffect, useState, type FormEvent } from 'react';
import {
  CONTENT_SECTION_KEYS,
  CONTENT_SECTIONS,
  fieldLabel,
  isMultilineField,
  type ContentData,
  type ContentSectionKey,
} from '../../../../common/content-sections.ts';
import { postJson } from '../../../lib/api-client.ts';
import { adminInput, adminPrimary, getJson } from './admin-ui.ts';

export function ContentTab() {
  const [section, setSection] = useState<ContentSectionKey>('homepage_hero');
  const [values, setValues] = useState<ContentData>({});
  const [saving, setSaving] = useState(false);

  // SPEC 4: changing the section reloads its stored values.
  useEffect(() => {
    let cancelled = false;
    void getJson<{ data: ContentData }>(`/api/admin/content/${section}`).then((result) => {
      if (!cancelled) setValues(result?.data ?? {});
    });
    return () => {
      cancelled = true;
    };
  }, [section]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      const result = await postJson<{ success?: boolean }>(`/api/admin/content/${section}`, values);
      if (result.ok && result.data.success) window.alert('Content saved successfully!');
    } catch {
      window.alert('Error saving content');
    } finally {
      setSaving(false);
    }
  }

  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Edit Page Content</h2>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <form onSubmit={save} className="space-y-4">
          <label className="block text-sm font-medium text-gray-700">
            Section
            <select
              id="content-section"
              value={section}
              onChange={(event) => setSection(event.target.value as ContentSectionKey)}
              className={adminInput}
            >
              {CONTENT_SECTION_KEYS.map((key) => (
                <option key={key} value={key}>
                  {CONTENT_SECTIONS[key].label}
                </option>
              ))}
            </select>
          </label>
          {CONTENT_SECTIONS[section].fields.map((field) => (
            <label key={`${section}-${field}`} className="block text-sm font-medium capitalize text-gray-700">
              {fieldLabel(field)}
              {isMultilineField(field) ? (
                <textarea
                  rows={4}
                  name={field}
                  value={values[field] ?? ''}
                  onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
                  className={adminInput}
                />
              ) : (
                <input
                  name={field}
                  value={values[field] ?? ''}
                  onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
                  className={adminInput}
                />
              )}
            </label>
          ))}
          <button type="submit" disabled={saving} className={adminPrimary}>
            {saving ? 'Saving...' : 'Save Changes'}
          </button>
        </form>
        <div>
          <h3 className="font-semibold text-gray-900">Preview</h3>
          <pre className="mt-2 overflow-x-auto rounded-xl bg-gray-900 p-4 text-xs text-green-200" data-testid="content-preview">
            {JSON.stringify(values, null, 2)}
          </pre>
        </div>
      </div>
    </section>
  );
}
