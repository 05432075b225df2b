import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LAST_OWNER, STAFF_EXISTS } from '../../common/admin.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { outboxMessages } from '../../db/schema.ts';
import {
  expectRefusedToEveryoneBut,
  lastAuditEntry,
  refusal,
  serviceTestApp,
  SIGN_IN_AS_STAFF,
  STAFF_ONLY,
} from '../../tests/helpers/service-tests.ts';
import { uniqueEmail } from '../../tests/helpers/test-app.ts';

// Staff accounts and their roles, called in process (the HTTP contract is tests/api/staff-roles.test.ts).

const t = serviceTestApp();

const staff = () => t.app.services.staff;
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('staff accounts', () => {
  it('tell any staff member who they are and where uploads go, and nobody else', async () => {
    expect(await refusal(() => staff().session(t.asVisitor()))).toEqual(SIGN_IN_AS_STAFF);
    const member = await t.asMember('gold');
    expect(await refusal(() => staff().session(member))).toEqual(STAFF_ONLY);
    const editor = await t.asStaff('editor');
    expect(staff().session(editor)).toEqual({
      email: editor.staff.email,
      role: 'editor',
      storage_name: t.app.storage.displayName,
      two_factor_setup_needed: false,
    });
  });

  it('are managed by owners only: visitors 401, members and editors 403, and nothing changes', async () => {
    const target = await t.asStaff('editor');
    const invitee = uniqueEmail('not-invited');
    const calls = (viewer: Viewer) => [
      () => staff().list(viewer),
      () => staff().invite(viewer, { email: invitee, role: 'owner' }),
      () => staff().setRole(viewer, target.staff.id, 'owner'),
      () => staff().remove(viewer, target.staff.id),
    ];
    await expectRefusedToEveryoneBut('owners', t, calls);
    const rows = (await staff().list(await t.asStaff('owner'))).items;
    expect(rows.find((row) => row.id === target.staff.id)?.role).toBe('editor');
    expect(rows.map((row) => row.email)).not.toContain(invitee);
  });

  it('are listed for an owner, who is marked as such', async () => {
    const owner = await t.asStaff('owner');
    const editor = await t.asStaff('editor');
    const rows = (await staff().list(owner)).items;
    expect(rows.filter((row) => row.you)).toEqual([
      expect.objectContaining({ id: owner.staff.id, email: owner.staff.email, role: 'owner' }),
    ]);
    expect(rows).toContainEqual({
      id: editor.staff.id,
      email: editor.staff.email,
      role: 'editor',
      created_at: expect.any(String),
      you: false,
    });
  });

  it('are invited by email, with their role and a link to choose a password for 7 days, once per address', async () => {
    const owner = await t.asStaff('owner');
    const email = uniqueEmail('invited');
    const invited = await staff().invite(owner, { email, role: 'editor' });
    expect(invited).toEqual({ id: expect.any(String), email, role: 'editor', created_at: expect.any(String), you: false });
    const mail = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
    expect(mail).toEqual([
      expect.objectContaining({
        kind: 'staff-invitation',
        linkGrant: { kind: 'account-token', purpose: 'password_reset', staffId: invited.id, ttlMs: 7 * 24 * 60 * 60 * 1000 },
        text: expect.stringContaining(`${owner.staff.email} invited you`),
      }),
    ]);
    expect(await lastAuditEntry(t, { action: 'staff.invite', target: email })).toMatchObject({
      actorEmail: owner.staff.email,
      newValue: 'editor',
    });
    expect(await refusal(staff().invite(owner, { email: email.toUpperCase(), role: 'owner' }))).toEqual({
      status: 409,
      message: STAFF_EXISTS,
    });
    expect((await staff().list(owner)).items.filter((row) => row.email.toLowerCase() === email)).toHaveLength(1);
  });

  it('change role at an owner’s word, each change recorded', async () => {
    const owner = await t.asStaff('owner');
    const editor = await t.asStaff('editor');
    expect(await staff().setRole(owner, editor.staff.id, 'owner')).toMatchObject({ id: editor.staff.id, role: 'owner', you: false });
    expect(await lastAuditEntry(t, { action: 'staff.role', target: editor.staff.email })).toMatchObject({
      actorEmail: owner.staff.email,
      oldValue: 'editor',
      newValue: 'owner',
    });
    const missing = { status: 404, message: 'Staff account not found' };
    expect(await refusal(staff().setRole(owner, NOBODY, 'editor'))).toEqual(missing);
    expect(await refusal(staff().remove(owner, NOBODY))).toEqual(missing);
  });

  it('are removed and signed out at once, but never by themselves', async () => {
    const owner = await t.asStaff('owner');
    const editor = await t.loginAsStaff({ role: 'editor' });
    const ownAccount = { status: 403, message: 'You cannot remove your own account: ask another owner.' };
    expect(await refusal(staff().remove(owner, owner.staff.id))).toEqual(ownAccount);
    await staff().remove(owner, editor.id);
    expect(await t.app.sessions.resolve(editor.token)).toBeNull();
    expect((await staff().list(owner)).items.map((row) => row.id)).not.toContain(editor.id);
    expect(await lastAuditEntry(t, { action: 'staff.remove', target: editor.email })).toMatchObject({
      actorEmail: owner.staff.email,
      oldValue: 'editor',
    });
  });

  it('always keep one owner, even against a request sent before its sender was made an editor', async () => {
    const first = await t.asStaff('owner');
    const second = await t.asStaff('owner');
    for (const row of (await staff().list(first)).items) {
      if (row.role === 'owner' && row.id !== first.staff.id && row.id !== second.staff.id) await staff().setRole(first, row.id, 'editor');
    }
    // With two owners, one may step down; then the other is the last.
    await staff().setRole(second, first.staff.id, 'editor');
    const lastOwner = { status: 409, message: LAST_OWNER };
    // `first` still reads as an owner here, as in a request that began before the change.
    expect(await refusal(staff().remove(first, second.staff.id))).toEqual(lastOwner);
    expect(await refusal(staff().setRole(first, second.staff.id, 'editor'))).toEqual(lastOwner);
    expect(await refusal(staff().setRole(second, second.staff.id, 'editor'))).toEqual(lastOwner);
    const owners = (await staff().list(second)).items.filter((row) => row.role === 'owner');
    expect(owners.map((row) => row.id)).toEqual([second.staff.id]);
  });
});
