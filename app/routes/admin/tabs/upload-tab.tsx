import { useState, type FormEvent } from 'react';
import { DEFAULT_UPLOAD_FOLDER, UPLOAD_FOLDERS } from '../../../../common/admin.ts';
import { adminInput, adminPrimary, getJson } from './admin-ui.ts';

export interface UploadedFile {
  id: string;
  filename: string;
  folder: string;
  url: string;
}

export function UploadTab({ initial, storageName }: { initial: UploadedFile[]; storageName: string }) {
  const [files, setFiles] = useState(initial);
  const [folder, setFolder] = useState<string>(DEFAULT_UPLOAD_FOLDER);
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [uploading, setUploading] = useState(false);

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // SPEC 5: does nothing when no file is chosen.
    if (!file) return;
    const body = new FormData();
    body.append('folder', folder);
    body.append('file', file);
    setUploading(true);
    try {
      const response = await fetch('/api/admin/upload', { method: 'POST', body, credentials: 'same-origin' });
      if (response.ok) {
        const { url } = (await response.json()) as { url: string };
        window.alert(`File uploaded successfully! URL: ${url}`);
        setFile(null);
        setInputKey((key) => key + 1);
        const reloaded = await getJson<UploadedFile[]>('/api/admin/files');
        if (reloaded) setFiles(reloaded);
      } else {
        console.warn('Upload refused', response.status, await response.text());
      }
    } catch {
      window.alert('Error uploading file');
    } finally {
      setUploading(false);
    }
  }

  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Upload Files to {storageName}</h2>
      <form onSubmit={upload} className="mt-4 grid gap-4 md:grid-cols-2">
        <label className="text-sm font-medium text-gray-700">
          Folder
          <select value={folder} onChange={(event) => setFolder(event.target.value)} className={adminInput}>
            {UPLOAD_FOLDERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-gray-700">
          File
          <input key={inputKey} type="file" onChange={(event) => setFile(event.target.files?.[0] ?? null)} className={adminInput} />
        </label>
        <div>
          <button type="submit" disabled={!file || uploading} className={adminPrimary}>
            {uploading ? 'Uploading...' : 'Upload File'}
          </button>
        </div>
      </form>
      <h3 className="mt-8 font-semibold text-gray-900">Uploaded Files</h3>
      <ul className="mt-3 max-h-72 divide-y divide-gray-100 overflow-y-auto rounded-xl border border-gray-200" data-testid="uploaded-files">
        {files.map((item) => (
          <li key={item.id} className="flex items-center justify-between gap-3 px-4 py-3 text-sm">
            <div className="min-w-0">
              <p className="truncate font-medium text-gray-900">{item.filename}</p>
              <p className="text-xs text-gray-500">{item.folder}</p>
            </div>
            <a href={item.url} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-800 hover:text-brand-600">
              View
            </a>
          </li>
        ))}
        {files.length === 0 && <li className="px-4 py-3 text-sm text-gray-500">No files uploaded yet.</li>}
      </ul>
    </section>
  );
}
