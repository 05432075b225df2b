import { describe, expect, it } from 'vitest';
import { INVALID_CREDENTIALS, TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG } from '../../common/auth.contract.ts';
import { OWNER_ONLY, TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import type { StaffRole } from '../../common/staff-roles.ts';
import { TWO_FACTOR_OWN_FIRST, TWO_FACTOR_REQUIRED_FOR_STAFF } from '../../common/two-factor.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';
import { totpCode } from '../auth/totp.ts';

// Staff two-factor sign-in, and owners requiring it of everyone, called in process (the HTTP
// contract is tests/api/staff-two-factor.test.ts).

const t = serviceTestApp();

const twoFactor = () => t.app.services.twoFactor;
const WRONG_CODE = { status: 400, message: TWO_FACTOR_CODE_WRONG };
/** The app's code for the current 30-second step, or one step on (both are taken; each works once). */
const codeOf = (secret: string, stepsAhead = 0) => totpCode(secret, Math.floor(Date.now() / 30_000) + stepsAhead);
let lastAddress = 0;
const visitor = () => t.asVisitor(`10.50.0.${++lastAddress}`);

/** A staff member who turned two-factor sign-in on: their sign-in, secret, recovery codes and viewer as of now. */
async function withTwoFactor(role: StaffRole) {
  const login = await t.loginAsStaff({ role });
  const { secret } = await twoFactor().begin(await t.viewerOf(login.token));
  const { recovery_codes: codes } = await twoFactor().enable(await t.viewerOf(login.token), codeOf(secret));
  return { ...login, secret, codes, viewer: await t.viewerOf(login.token) };
}

describe('two-factor sign-in', () => {
  it('is each staff member’s own business: visitors 401, members 403', async () => {
    const calls = (viewer: Viewer) => [
      () => twoFactor().status(viewer),
      () => twoFactor().begin(viewer),
      () => twoFactor().enable(viewer, '123456'),
    ];
    await expectRefusedToEveryoneBut('staff', t, calls);
    expect(await twoFactor().status(await t.asStaff('editor'))).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });
  });

  it('turns on with a code from the app just set up, hands out ten recovery codes, and is recorded', async () => {
    const login = await t.loginAsStaff({ role: 'editor' });
    const viewer = await t.viewerOf(login.token);
    const noSetup = { status: 409, message: 'Start the setup again: there is no code to check yet.' };
    expect(await refusal(twoFactor().enable(viewer, '123456'))).toEqual(noSetup);
    const setup = await twoFactor().begin(viewer);
    expect(setup.uri).toMatch(new RegExp(`^otpauth://totp/[^?]+${encodeURIComponent(login.email)}\\?secret=${setup.secret}&`));
    expect((await twoFactor().status(viewer)).enabled).toBe(false);
    const wrong = codeOf(setup.secret) === '000000' ? '000001' : '000000';
    expect(await refusal(twoFactor().enable(viewer, wrong))).toEqual(WRONG_CODE);

    const { recovery_codes: codes } = await twoFactor().enable(viewer, codeOf(setup.secret));
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await twoFactor().status(viewer)).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    expect((await t.viewerOf(login.token)).staff!.twoFactorEnabled).toBe(true);
    expect(await refusal(twoFactor().begin(viewer))).toEqual({ status: 409, message: 'Two-factor sign-in is on already.' });
    expect(await refusal(twoFactor().enable(viewer, codeOf(setup.secret, 1)))).toEqual(noSetup);
    expect(await lastAuditEntry(t, { action: 'staff.two-factor', target: login.email })).toMatchObject({
      actorEmail: login.email,
      oldValue: 'off',
      newValue: 'on',
    });
  });

  it('asks for a code after the right password, and takes each code and each recovery code once', async () => {
    const staff = await withTwoFactor('editor');
    const signIn = (code?: string, password = staff.password) =>
      t.app.services.auth.staffSignIn(visitor(), { email: staff.email, password, code });
    expect(await refusal(signIn())).toEqual({ status: 401, message: TWO_FACTOR_CODE_NEEDED });
    const code = codeOf(staff.secret, 1);
    // A wrong password never reaches the code, and says nothing of it.
    expect(await refusal(signIn(code, 'not the password'))).toEqual({ status: 401, message: INVALID_CREDENTIALS });
    expect((await signIn(code)).email).toBe(staff.email);
    expect(await refusal(signIn(code))).toEqual({ status: 401, message: TWO_FACTOR_CODE_WRONG });
    const recovery = staff.codes[0]!;
    expect((await signIn(recovery.toUpperCase())).email).toBe(staff.email);
    expect(await refusal(signIn(recovery))).toEqual({ status: 401, message: TWO_FACTOR_CODE_WRONG });
    expect((await twoFactor().status(staff.viewer)).recovery_codes_left).toBe(9);
  });

  it('turns off only with a code, which ends the recovery codes too', async () => {
    const staff = await withTwoFactor('editor');
    const wrong = staff.codes.includes('aaaaa-aaaaa') ? 'bbbbb-bbbbb' : 'aaaaa-aaaaa';
    expect(await refusal(twoFactor().disable(staff.viewer, wrong))).toEqual(WRONG_CODE);
    expect((await twoFactor().status(staff.viewer)).enabled).toBe(true);
    await twoFactor().disable(staff.viewer, staff.codes[3]!);
    expect(await twoFactor().status(staff.viewer)).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });
    expect(await lastAuditEntry(t, { action: 'staff.two-factor', target: staff.email })).toMatchObject({ oldValue: 'on', newValue: 'off' });
    await expect(t.app.services.auth.staffSignIn(visitor(), { email: staff.email, password: staff.password })).resolves.toBeTruthy();
  });

  it('may be required of every staff member by an owner who uses it; then it is the one thing the others may do', async () => {
    const editor = await withTwoFactor('editor');
    expect(await refusal(twoFactor().setRequired(editor.viewer, true))).toEqual({ status: 403, message: OWNER_ONLY });
    expect(await refusal(twoFactor().setRequired(await t.asStaff('owner'), true))).toEqual({ status: 409, message: TWO_FACTOR_OWN_FIRST });
    expect((await twoFactor().status(editor.viewer)).required).toBe(false);

    const owner = await withTwoFactor('owner');
    await twoFactor().setRequired(owner.viewer, true);
    expect(await lastAuditEntry(t, { action: 'staff.two-factor-required', target: 'every staff member' })).toMatchObject({
      actorEmail: owner.email,
      newValue: true,
    });
    const unprotected = await t.asStaff('owner');
    expect(t.app.services.staff.session(unprotected).two_factor_setup_needed).toBe(true);
    expect(await refusal(t.app.services.staff.list(unprotected))).toEqual({ status: 403, message: TWO_FACTOR_SETUP_FIRST });
    expect(await twoFactor().status(unprotected)).toEqual({ enabled: false, required: true, recovery_codes_left: 0 });
    await expect(twoFactor().begin(unprotected)).resolves.toMatchObject({ secret: expect.any(String) });
    expect(await refusal(twoFactor().disable(owner.viewer, codeOf(owner.secret, 1)))).toEqual({
      status: 403,
      message: TWO_FACTOR_REQUIRED_FOR_STAFF,
    });
    expect((await twoFactor().status(owner.viewer)).enabled).toBe(true);

    await twoFactor().setRequired(owner.viewer, false);
    expect((await twoFactor().status(unprotected)).required).toBe(false);
  });
});
