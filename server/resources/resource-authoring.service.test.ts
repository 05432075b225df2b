import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ResourceInput } from '../../common/resources.contract.ts';
import { uploadedFiles } from '../../db/schema.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, libraryFile, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// Staff write the resources library: an id from the title, a file from the library or a link, and
// every change in the activity log; members get a download link only where their tier reaches.

const t = serviceTestApp();
const authoring = () => t.app.services.resourceAuthoring;
const NOT_FOUND = { status: 404, message: 'Resource not found' };

const EBOOK: ResourceInput = {
  title: 'Open House Playbook',
  description: 'Before, during and after.',
  resource_type: 'ebook',
  tier_required: 'silver',
  file_id: null,
  download_url: '',
};
const ebookFile = (filename: string) => libraryFile(t, { filename, folder: 'ebooks' });

describe('resource authoring', () => {
  it('keeps the staff list and every change to staff (editors included)', async () => {
    const made = await authoring().create(await t.asStaff('editor'), { ...EBOOK, title: 'Staff Only' });
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => authoring().staffList(viewer),
      () => authoring().create(viewer, EBOOK),
      () => authoring().update(viewer, made.id, EBOOK),
      () => authoring().remove(viewer, made.id),
    ]);
    expect((await authoring().staffList(await t.asStaff('owner'))).items.map((each) => each.id)).toEqual(['staff-only']);
  });

  it('makes a free id from the title, serves a library file through the tier check, and records the creation', async () => {
    const editor = await t.asStaff('editor');
    const fileId = await ebookFile('playbook.pdf');
    const first = await authoring().create(editor, { ...EBOOK, file_id: fileId });
    const second = await authoring().create(editor, { ...EBOOK, download_url: 'https://example.com/playbook' });
    expect(first).toEqual({
      id: 'open-house-playbook',
      title: 'Open House Playbook',
      description: 'Before, during and after.',
      resource_type: 'ebook',
      tier_required: 'silver',
      download_url: '/api/resources/open-house-playbook/download',
      has_download: true,
      file_id: fileId,
      file_name: 'playbook.pdf',
      link: '',
    });
    expect(second).toMatchObject({ id: 'open-house-playbook-2', link: 'https://example.com/playbook', file_id: null, file_name: null });
    expect(await lastAuditEntry(t, { action: 'resource.create', target: 'open-house-playbook' })).toMatchObject({
      actorEmail: editor.staff.email,
      newValue: { ...EBOOK, file_id: fileId },
    });

    const shown = async (tier: 'bronze' | 'silver') =>
      (await t.app.services.resources.list(await t.asMember(tier))).find((each) => each.id === first.id);
    expect(await shown('bronze')).toMatchObject({ download_url: null, has_download: true });
    expect(await shown('silver')).toMatchObject({ download_url: '/api/resources/open-house-playbook/download' });
  });

  it('refuses a file that is not in the library, and an unknown resource', async () => {
    const owner = await t.asStaff('owner');
    const notInLibrary = { status: 400, message: 'The file is not in the file library.' };
    expect(await refusal(authoring().create(owner, { ...EBOOK, file_id: randomUUID() }))).toEqual(notInLibrary);
    const made = await authoring().create(owner, { ...EBOOK, title: 'Listing Checklist' });
    expect(await refusal(authoring().update(owner, made.id, { ...EBOOK, file_id: randomUUID() }))).toEqual(notInLibrary);
    expect(await refusal(authoring().update(owner, 'no-such-resource', EBOOK))).toEqual(NOT_FOUND);
    expect(await refusal(authoring().remove(owner, 'no-such-resource'))).toEqual(NOT_FOUND);
  });

  it('changes a resource in place, and removes it while its file stays in the library, recording both', async () => {
    const editor = await t.asStaff('editor');
    const fileId = await ebookFile('market.pdf');
    const made = await authoring().create(editor, { ...EBOOK, title: 'Market Report May', file_id: fileId });
    const changed = await authoring().update(editor, made.id, {
      ...EBOOK,
      title: 'Market Report June',
      resource_type: 'market_report',
      tier_required: 'gold',
      file_id: fileId,
    });
    // The id stays: links to it keep working.
    expect(changed).toMatchObject({ id: made.id, title: 'Market Report June', resource_type: 'market_report', tier_required: 'gold' });
    expect(await lastAuditEntry(t, { action: 'resource.update', target: made.id })).toMatchObject({
      oldValue: { title: 'Market Report May', tier_required: 'silver' },
    });

    await authoring().remove(editor, made.id);
    expect((await authoring().staffList(editor)).items.map((each) => each.id)).not.toContain(made.id);
    expect((await t.app.services.resources.list(t.asVisitor())).map((each) => each.id)).not.toContain(made.id);
    expect(await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, fileId))).toHaveLength(1);
    expect(await lastAuditEntry(t, { action: 'resource.delete', target: made.id })).toMatchObject({ newValue: null });
  });
});
