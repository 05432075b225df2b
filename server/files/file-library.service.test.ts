import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { uploadedFiles } from '../../db/schema.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// Staff's file library: uploads checked by name and content, stored under a name the server picks
// with a visibility (by default from the folder); renaming keeps the type; a file in use stays.

const t = serviceTestApp();
const files = () => t.app.services.files;
const FILE_NOT_FOUND = { status: 404, message: 'File not found.' };
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

const text = (body: string) => new TextEncoder().encode(body);
const png = (width: number) =>
  sharp({ create: { width, height: 10, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
/** The stored row of an uploaded file: its storage key and image copies. */
const rowOf = async (id: string) => (await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id)))[0]!;
/** Whether the file store holds this key (get is what every store answers). */
const stored = async (key: string) => {
  const body = await t.app.storage.get(key);
  body?.destroy();
  return body !== null;
};

describe('who keeps the library', () => {
  it('keeps every call to staff (editors included)', async () => {
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => files().list(viewer),
      () => files().choices(viewer),
      () => files().upload(viewer, { filename: 'notes.txt', content: text('hello'), folder: 'templates' }),
      () => files().setVisibility(viewer, MISSING_ID, 'public'),
      () => files().rename(viewer, MISSING_ID, 'new.txt'),
      () => files().remove(viewer, MISSING_ID),
    ]);
    expect((await files().list(await t.asStaff('editor'))).items).toEqual([]);
  });
});

describe('uploads', () => {
  it('refuses an unknown folder or visibility, a type outside the list, an empty file and content that is not what its name says', async () => {
    const editor = await t.asStaff('editor');
    const upload = (filename: string, content: Uint8Array, extra: { folder?: unknown; visibility?: unknown } = {}) =>
      refusal(files().upload(editor, { filename, content, folder: 'templates', ...extra }));
    expect(await upload('notes.txt', text('hi'), { folder: 'secrets' })).toEqual({
      status: 400,
      message: 'Choose one of the folders: course-materials, ebooks, templates, images, videos.',
    });
    expect(await upload('notes.txt', text('hi'), { visibility: 'staff' })).toEqual({
      status: 400,
      message: 'Choose who may open the file: public, free, bronze, silver or gold.',
    });
    expect(await upload('tool.exe', text('MZ'))).toEqual({
      status: 400,
      message: expect.stringMatching(/^Files of this type are not accepted\. Allowed: pdf, docx, .*, txt, csv, vtt\.$/),
    });
    expect(await upload('empty.txt', new Uint8Array())).toEqual({ status: 400, message: 'The file is empty.' });
    expect(await upload('report.pdf', text('not a pdf at all'))).toEqual({
      status: 400,
      message: "The file's content does not match its .pdf extension.",
    });
    expect((await files().list(editor)).items).toEqual([]);
  });

  it('stores a file under a name of its own, for Bronze and above unless told, keeping only the base of the name given, and records it', async () => {
    const editor = await t.asStaff('editor');
    const uploaded = await files().upload(editor, {
      filename: '..\\..\\scripts/call-notes.txt',
      content: text('Call list'),
      folder: 'templates',
    });
    expect(uploaded).toEqual({
      success: true,
      id: expect.any(String),
      filename: 'call-notes.txt',
      folder: 'templates',
      url: `/api/files/${uploaded.id}`,
      visibility: 'bronze',
      content_type: 'text/plain; charset=utf-8',
    });
    const row = await rowOf(uploaded.id);
    expect(row.storageKey).toMatch(/^templates\/[0-9a-f]{32}\.txt$/);
    expect(await stored(row.storageKey)).toBe(true);
    expect(await lastAuditEntry(t, { action: 'file.upload', target: 'templates/call-notes.txt' })).toMatchObject({
      actorEmail: editor.staff.email,
      newValue: { size: 9, visibility: 'bronze' },
    });
  });

  it('makes an image public with its own address and smaller copies, and offers only public images to the pickers', async () => {
    const owner = await t.asStaff('owner');
    const image = await files().upload(owner, { filename: 'hero.png', content: await png(700), folder: 'images' });
    const row = await rowOf(image.id);
    expect(image).toMatchObject({ visibility: 'public', url: `/files/${row.storageKey}`, content_type: 'image/png' });
    expect(row.variants.map((variant) => variant.width)).toEqual([320, 640]);
    for (const variant of row.variants) expect(await stored(variant.key)).toBe(true);

    const hidden = await files().upload(owner, {
      filename: 'gold-chart.png',
      content: await png(20),
      folder: 'images',
      visibility: 'gold',
    });
    expect(hidden.url).toBe(`/api/files/${hidden.id}`);
    const offered = (await files().choices(owner)).map((each) => each.filename);
    expect(offered).toContain('hero.png');
    // A members-only image is still offered as an attachment, never as a public picture: it shows once.
    expect(offered.filter((name) => name === 'gold-chart.png')).toHaveLength(1);
    expect((await files().list(owner, { search: 'HERO' })).items.map((each) => each.id)).toEqual([image.id]);
  });
});

describe('changing and removing files', () => {
  it('changes who may open a file, and records it', async () => {
    const editor = await t.asStaff('editor');
    const made = await files().upload(editor, { filename: 'prices.csv', content: text('a,b\n1,2\n'), folder: 'templates' });
    expect(await files().setVisibility(editor, made.id, 'gold')).toMatchObject({ id: made.id, visibility: 'gold' });
    expect(await lastAuditEntry(t, { action: 'file.visibility', target: 'templates/prices.csv' })).toMatchObject({
      oldValue: 'bronze',
      newValue: 'gold',
    });
    expect(await refusal(files().setVisibility(editor, MISSING_ID, 'gold'))).toEqual(FILE_NOT_FOUND);
  });

  it('renames a file only with the ending it has, and records it', async () => {
    const editor = await t.asStaff('editor');
    const made = await files().upload(editor, { filename: 'draft.txt', content: text('words'), folder: 'templates' });
    for (const name of ['draft.pdf', 'draft'])
      expect(await refusal(files().rename(editor, made.id, name))).toEqual({
        status: 400,
        message: 'Keep the .txt ending: it says what kind of file this is.',
      });
    expect(await files().rename(editor, made.id, 'Final Script.TXT')).toMatchObject({ filename: 'Final Script.TXT' });
    expect(await lastAuditEntry(t, { action: 'file.rename', target: 'templates/draft.txt' })).toMatchObject({
      oldValue: 'draft.txt',
      newValue: 'Final Script.TXT',
    });
    expect(await refusal(files().rename(editor, MISSING_ID, 'x.txt'))).toEqual(FILE_NOT_FOUND);
  });

  it('keeps a file that a resource uses, saying where, and deletes an unused one with its copies', async () => {
    const editor = await t.asStaff('editor');
    const used = await files().upload(editor, { filename: 'guide.txt', content: text('guide'), folder: 'ebooks' });
    await t.app.services.resourceAuthoring.create(editor, {
      title: 'Buyer Guide',
      description: 'For first-time buyers.',
      resource_type: 'ebook',
      tier_required: 'bronze',
      file_id: used.id,
      download_url: '',
    });
    expect(await refusal(files().remove(editor, used.id))).toEqual({
      status: 409,
      message: 'This file is in use as the download of the resource “Buyer Guide”. Choose another file there first.',
    });

    const image = await files().upload(editor, { filename: 'old.png', content: await png(400), folder: 'images' });
    const row = await rowOf(image.id);
    await files().remove(editor, image.id);
    expect(await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, image.id))).toEqual([]);
    for (const key of [row.storageKey, ...row.variants.map((variant) => variant.key)]) expect(await stored(key)).toBe(false);
    expect(await lastAuditEntry(t, { action: 'file.delete', target: 'images/old.png' })).toMatchObject({ oldValue: row.storageKey });
    expect(await refusal(files().remove(editor, image.id))).toEqual(FILE_NOT_FOUND);
  });
});
