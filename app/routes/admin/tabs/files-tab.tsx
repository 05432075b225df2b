import { useRef, useState } from 'react';
import { z } from 'zod';
import { useFetcher } from 'react-router';
import {
  DEFAULT_UPLOAD_FOLDER,
  defaultVisibility,
  FILE_VISIBILITIES,
  FILE_VISIBILITY_LABEL,
  FileParams,
  FileRenameInput,
  FileVisibility,
  UPLOAD_FOLDER_LABEL,
  UPLOAD_FOLDER_VALUES,
  UploadFolder,
} from '../../../../common/files.contract.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { useActionAlerts } from '../../../components/admin/use-action-alerts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmedForm } from '../../../components/ui/confirmed-form.tsx';
import { Input, Select } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { SearchForm } from '../../../components/ui/search-form.tsx';
import { SearchQuery } from '../../../../common/paging.ts';
import { attempt, formErrors, orRequestFailed, readForm, unlessRequestFailed, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/files-tab';
import { TEXT_MAX } from '../../../../common/limits.ts';

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const asked = new URL(request.url).searchParams;
  const query = SearchQuery.safeParse({ before: asked.get('before') ?? undefined, search: asked.get('search') ?? undefined });
  const page = await services.files.list(viewer, query.success ? query.data : {});
  return {
    files: page.items,
    next: page.next_cursor,
    search: query.success ? (query.data.search ?? '') : '',
    storageName: services.files.storageName,
    uploadRules: services.files.uploadRules,
  };
}

const VisibilityChange = z.object({ fileId: FileParams.shape.id, visibility: FileVisibility });

// SPEC 7: a multipart form with file and folder (and who may open it); or a change of visibility.
export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await readForm(request);
  if (!form) return unreadableForm();
  if (form.get('intent') === 'rename' || form.get('intent') === 'delete') {
    const target = FileParams.safeParse({ id: form.get('fileId') });
    if (!target.success) return formErrors(target.error.issues[0]?.message ?? 'Choose a file.');
    if (form.get('intent') === 'delete') {
      const removed = await attempt(() => services.files.remove(viewer, target.data.id));
      return removed.ok ? { ok: true as const, message: 'File deleted.' } : removed.refusal;
    }
    const name = FileRenameInput.safeParse({ filename: form.get('filename') });
    if (!name.success) return formErrors(name.error.issues[0]?.message ?? 'Give the file a name.');
    const renamed = await attempt(() => services.files.rename(viewer, target.data.id, name.data.filename));
    return renamed.ok ? { ok: true as const, message: 'File renamed.' } : renamed.refusal;
  }
  if (form.get('intent') === 'visibility') {
    const change = VisibilityChange.safeParse(Object.fromEntries(form));
    if (!change.success) return formErrors(change.error.issues[0]?.message ?? 'Choose who may open the file.');
    const changed = await attempt(() => services.files.setVisibility(viewer, change.data.fileId, change.data.visibility));
    if (!changed.ok) return changed.refusal;
    return { ok: true as const, url: changed.value.url, changed: true };
  }
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) return formErrors('Choose a file to upload.');
  const uploaded = await attempt(async () =>
    services.files.upload(viewer, {
      filename: file.name,
      content: new Uint8Array(await file.arrayBuffer()),
      folder: form.get('folder'),
      visibility: form.get('visibility') ?? undefined,
    }),
  );
  if (!uploaded.ok) return uploaded.refusal;
  return { ok: true as const, url: uploaded.value.url, changed: false };
}

// In the browser, a request that fails on the way still gets its alert (SPEC 8).
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => orRequestFailed(() => serverAction());
export const shouldRevalidate = unlessRequestFailed;

const FOLDER_OPTIONS = UPLOAD_FOLDER_VALUES.map((value) => ({ value, label: UPLOAD_FOLDER_LABEL[value] }));
const VISIBILITY_OPTIONS = FILE_VISIBILITIES.map((value) => ({ value, label: FILE_VISIBILITY_LABEL[value] }));

/** Who may open one listed file; changing it takes effect at once. */
function VisibilitySelect({ file }: { file: { id: string; filename: string; visibility: FileVisibility } }) {
  const fetcher = useFetcher<typeof clientAction>();
  const shown = fetcher.formData?.get('visibility')?.toString() ?? file.visibility;
  return (
    <select
      aria-label={`Who may open ${file.filename}`}
      value={shown}
      onChange={(event) =>
        void fetcher.submit({ intent: 'visibility', fileId: file.id, visibility: event.target.value }, { method: 'post' })
      }
      className="rounded border border-gray-300 px-2 py-1 text-xs"
    >
      {VISIBILITY_OPTIONS.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}

/** Rename (the ending stays) and Delete (refused, saying where, while a course, lesson, resource or episode uses it). */
function FileActions({ file }: { file: { id: string; filename: string } }) {
  const fetcher = useFetcher<typeof clientAction>();
  // This form's answers are a message or a refusal (never an upload's).
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;
  return (
    <div className="basis-full">
      <div className="flex flex-wrap items-start gap-3 text-xs">
        <details>
          <summary className="cursor-pointer font-semibold text-brand-800">Rename</summary>
          <fetcher.Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="rename" />
            <input type="hidden" name="fileId" value={file.id} />
            <Input compact label="New name" name="filename" defaultValue={file.filename} required maxLength={TEXT_MAX.filename} />
            <Button type="submit" size="sm" disabled={fetcher.state !== 'idle'}>
              Save name
            </Button>
          </fetcher.Form>
        </details>
        <ConfirmedForm fetcher={fetcher} question={`Delete ${file.filename}?`} fields={{ intent: 'delete', fileId: file.id }}>
          <button type="submit" aria-label={`Delete ${file.filename}`} className="font-semibold text-red-700 hover:text-red-600">
            Delete
          </button>
        </ConfirmedForm>
      </div>
      <Outcome answer={answer} />
    </div>
  );
}

export default function FilesTab({ loaderData }: Route.ComponentProps) {
  const { files, next, search, storageName, uploadRules } = loaderData;
  const fetcher = useFetcher<typeof action>();
  // The server's reason for refusing an upload (a type it does not take, a file too large) shows by the form.
  const refused = fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;
  const form = useRef<HTMLFormElement>(null);
  const [chosen, setChosen] = useState(false);
  const [folder, setFolder] = useState<UploadFolder>(DEFAULT_UPLOAD_FOLDER);
  // Who may open a new file follows its folder until the staff member picks otherwise.
  const [visibility, setVisibility] = useState<FileVisibility | null>(null);
  useActionAlerts(fetcher, {
    success: (data) => `File uploaded successfully! URL: ${'url' in data ? String(data.url) : ''}`,
    networkError: 'Error uploading file',
    // SPEC 4: a successful upload clears the chosen file (and the list reloads with the loader).
    onSuccess: () => {
      form.current?.reset();
      setChosen(false);
      setFolder(DEFAULT_UPLOAD_FOLDER);
      setVisibility(null);
    },
  });
  const uploading = fetcher.state !== 'idle';

  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Upload Files to {storageName}</h2>
      <fetcher.Form
        ref={form}
        method="post"
        encType="multipart/form-data"
        className="mt-4 grid gap-4 md:grid-cols-2"
        onSubmit={(event) => {
          // SPEC 5: does nothing when no file is chosen.
          if (!chosen) event.preventDefault();
        }}
      >
        <Select
          compact
          label="Folder"
          name="folder"
          value={folder}
          onChange={(event) => setFolder(event.target.value as UploadFolder)}
          options={FOLDER_OPTIONS}
        />
        <Select
          compact
          label="Who can open it"
          name="visibility"
          value={visibility ?? defaultVisibility(folder)}
          onChange={(event) => setVisibility(event.target.value as FileVisibility)}
          options={VISIBILITY_OPTIONS}
        />
        <div>
          <Input
            compact
            label="File"
            name="file"
            type="file"
            accept={uploadRules.extensions.map((extension) => `.${extension}`).join(',')}
            aria-describedby="upload-rules"
            onChange={(event) => setChosen(Boolean(event.target.files?.length))}
          />
          <p id="upload-rules" className="mt-1 text-xs text-gray-500">
            {uploadRules.extensions.map((extension) => extension.toUpperCase()).join(', ')}; at most{' '}
            {Math.round(uploadRules.maxBytes / (1024 * 1024))} MB.
          </p>
        </div>
        {refused && (
          <p role="alert" className="text-sm text-red-700 md:col-span-2">
            Upload refused: {refused}
          </p>
        )}
        <div>
          <Button type="submit" disabled={!chosen || uploading}>
            {uploading ? 'Uploading...' : 'Upload File'}
          </Button>
        </div>
      </fetcher.Form>
      <h3 className="mt-8 font-semibold text-gray-900">Uploaded Files</h3>
      <div className="mt-3">
        <SearchForm id="file-search" name="search" label="Search the library by name" defaultValue={search} />
      </div>
      <ul className="mt-3 max-h-72 divide-y divide-gray-100 overflow-y-auto rounded-xl border border-gray-200" data-testid="uploaded-files">
        {files.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-x-2 gap-y-2 px-4 py-3 text-sm">
            {/* On a phone the name has a line of its own, so it is never squeezed away. */}
            <div className="min-w-0 basis-full sm:flex-1 sm:basis-auto">
              <p className="truncate font-medium text-gray-900">{item.filename}</p>
              <p className="text-xs text-gray-500">{item.folder}</p>
            </div>
            <VisibilitySelect file={item} />
            <a
              href={item.url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600"
            >
              View
            </a>
            <FileActions file={item} />
          </li>
        ))}
        {files.length === 0 && <li className="px-4 py-3 text-sm text-gray-500">No files uploaded yet.</li>}
      </ul>
      <Pager param="before" next={next} label="Older files" />
    </section>
  );
}
