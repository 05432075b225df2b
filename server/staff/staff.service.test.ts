import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WRONG_PASSWORD } from '../../common/account.contract.ts';
import { LAST_OWNER, STAFF_EXISTS } from '../../common/admin.contract.ts';
import { TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import type { Viewer } from '../../common/viewer.ts';
import { outboxMessages } from '../../db/schema.ts';
import {
  expectRefusedToEveryoneBut,
  lastAuditEntry,
  refusal,
  serviceTestApp,
  SIGN_IN_AS_STAFF,
  STAFF_ONLY,
  TOO_MANY_ATTEMPTS,
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
      two_factor_locked_until: null,
    });
  });

  it('are invited by email, with their role and a link to choose a password for 7 days, once per address', async () => {
    const owner = await t.asStaff('owner');
    const email = uniqueEmail('invited');
    const invited = await staff().invite(owner, { email, role: 'editor' });
    expect(invited).toEqual({
      id: expect.any(String),
      email,
      role: 'editor',
      created_at: expect.any(String),
      you: false,
      two_factor_locked_until: null,
    });
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

describe('a staff member’s own email and password', () => {
  const mailTo = (email: string, kind: string) =>
    t.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.toAddress, email))
      .then((rows) => rows.filter((row) => row.kind === kind));

  it('change only with the password again: a stolen session alone changes neither', async () => {
    const login = await t.loginAsStaff({ role: 'editor' });
    const viewer = await t.viewerOf(login.token);
    const wrongPassword = (field: string) => ({ status: 400, message: WRONG_PASSWORD, field });
    const fieldOf = (work: Promise<unknown>) =>
      work.then(
        () => null,
        (error: { status: number; message: string; field?: string }) => ({
          status: error.status,
          message: error.message,
          field: error.field,
        }),
      );
    expect(await fieldOf(staff().changeEmail(viewer, { email: uniqueEmail('thief'), password: 'a guess' }))).toEqual(
      wrongPassword('password'),
    );
    expect(await fieldOf(staff().changePassword(viewer, { current_password: 'a guess', new_password: 'thief password' }))).toEqual(
      wrongPassword('current_password'),
    );
    expect(await t.app.sessions.resolve(login.token)).not.toBeNull();
    expect((await staff().list(await t.asStaff('owner'))).items.find((row) => row.id === login.id)?.email).toBe(login.email);
    // Limited like sign-in: past a few wrong ones, even the right password waits.
    for (let guess = 3; guess <= 5; guess++)
      await refusal(staff().changeEmail(viewer, { email: uniqueEmail('thief'), password: `guess ${guess}` }));
    expect(await refusal(staff().changePassword(viewer, { current_password: login.password, new_password: 'thief password' }))).toEqual(
      TOO_MANY_ATTEMPTS,
    );
    expect(await refusal(staff().changeEmail(await t.asVisitor(), { email: uniqueEmail('x'), password: 'x' }))).toEqual(SIGN_IN_AS_STAFF);
  });

  it('change the email at once, recorded, with a notice to the old address; a taken address is refused', async () => {
    const login = await t.loginAsStaff({ role: 'editor' });
    const viewer = await t.viewerOf(login.token);
    const other = await t.asStaff('owner');
    expect(await refusal(staff().changeEmail(viewer, { email: other.staff.email.toUpperCase(), password: login.password }))).toEqual({
      status: 409,
      message: STAFF_EXISTS,
    });
    const newEmail = uniqueEmail('moved');
    expect(await staff().changeEmail(viewer, { email: newEmail, password: login.password })).toEqual({
      success: true,
      message: `Your email is now ${newEmail}: sign in with it from now on.`,
    });
    expect((await t.viewerOf(login.token)).staff?.email).toBe(newEmail);
    expect(await mailTo(login.email, 'staff-email-changed')).toEqual([
      expect.objectContaining({ subject: 'Your email address was changed', text: expect.stringContaining(newEmail) }),
    ]);
    expect(await lastAuditEntry(t, { action: 'staff.email', target: newEmail })).toMatchObject({
      actorEmail: login.email,
      oldValue: login.email,
      newValue: newEmail,
    });
    const signedIn = await t.app.services.auth.staffSignIn(t.asVisitor('10.55.0.1'), { email: newEmail, password: login.password });
    expect(signedIn.email).toBe(newEmail);
  });

  it('change the password with the current one: every session of the account ends, recorded, and the account is told', async () => {
    const login = await t.loginAsStaff({ role: 'editor' });
    const elsewhere = await t.app.sessions.create({ kind: 'staff', staffId: login.id });
    await staff().changePassword(await t.viewerOf(login.token), { current_password: login.password, new_password: 'a new staff password' });
    expect(await t.app.sessions.resolve(login.token)).toBeNull();
    expect(await t.app.sessions.resolve(elsewhere.token)).toBeNull();
    expect(await mailTo(login.email, 'staff-password-changed')).toEqual([
      expect.objectContaining({ subject: 'Your password was changed' }),
    ]);
    expect(await lastAuditEntry(t, { action: 'staff.password', target: login.email })).toMatchObject({ actorEmail: login.email });
    const signIn = (password: string) => t.app.services.auth.staffSignIn(t.asVisitor('10.55.0.2'), { email: login.email, password });
    expect(await refusal(signIn(login.password))).toMatchObject({ status: 401 });
    expect((await signIn('a new staff password')).email).toBe(login.email);
  });

  it('wait, where owners require two-factor sign-in, until it is set up', async () => {
    const editor = await t.asStaff('editor');
    const viewer = { ...editor, staff: { ...editor.staff, twoFactorRequired: true } };
    const setupFirst = { status: 403, message: TWO_FACTOR_SETUP_FIRST };
    expect(await refusal(staff().changeEmail(viewer, { email: uniqueEmail('x'), password: 'x' }))).toEqual(setupFirst);
    expect(await refusal(staff().changePassword(viewer, { current_password: 'x', new_password: 'y'.repeat(8) }))).toEqual(setupFirst);
  });
});
