import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG } from '../../common/auth.contract.ts';
import { TWO_FACTOR_OWN_FIRST, TWO_FACTOR_REQUIRED_FOR_STAFF } from '../../common/two-factor.contract.ts';
import { TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import { totpCode } from '../../server/auth/totp.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// Staff two-factor sign-in: a code from an authenticator app after the password, recovery codes for a
// lost phone, and owners who require it of everyone.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

let nextAddress = 0;
const post = (url: string, payload: object, headers: Record<string, string> = {}, from = `10.66.0.${++nextAddress}`) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: from });
/** The app's code for the current 30-second step, or one step on (both are taken; each works once). */
const codeOf = (secret: string, stepsAhead = 0) => totpCode(secret, Math.floor(Date.now() / 30_000) + stepsAhead);

/** A staff member who turned two-factor sign-in on: their secret and recovery codes. */
async function withTwoFactor(role: 'owner' | 'editor') {
  const staff = await t.loginAsStaff({ role, email: uniqueEmail(`2fa-${role}`) });
  const headers = { authorization: `Bearer ${staff.token}` };
  const setup = await post('/api/admin/two-factor/setup', {}, headers);
  expect(setup.statusCode).toBe(200);
  const { secret, uri } = setup.json() as { secret: string; uri: string };
  expect(uri).toBe(
    `otpauth://totp/RealtyPocket%3A${encodeURIComponent(staff.email)}?secret=${secret}&issuer=RealtyPocket&algorithm=SHA1&digits=6&period=30`,
  );
  expect((await post('/api/admin/two-factor/enable', { code: '000000' }, headers)).json().detail).toBe(TWO_FACTOR_CODE_WRONG);
  const enabled = await post('/api/admin/two-factor/enable', { code: codeOf(secret) }, headers);
  expect(enabled.statusCode).toBe(200);
  const codes = enabled.json().recovery_codes as string[];
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  return { ...staff, headers, secret, codes };
}

describe('two-factor sign-in', () => {
  it('asks for the code after the right password, takes each code once, and a recovery code once', async () => {
    const staff = await withTwoFactor('editor');
    const login = (extra: object = {}) => post('/api/admin/login', { email: staff.email, password: staff.password, ...extra });
    const missing = await login();
    expect(missing.statusCode).toBe(401);
    expect(missing.json().detail).toBe(TWO_FACTOR_CODE_NEEDED);
    expect((await login({ code: '123456' })).json().detail).toBe(TWO_FACTOR_CODE_WRONG);
    const code = codeOf(staff.secret, 1);
    expect((await login({ code })).statusCode).toBe(200);
    expect((await login({ code })).json().detail).toBe(TWO_FACTOR_CODE_WRONG);
    expect((await login({ code: staff.codes[0]!.toUpperCase() })).statusCode).toBe(200);
    expect((await login({ code: staff.codes[0] })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/two-factor', headers: staff.headers })).json()).toEqual({
      enabled: true,
      required: false,
      recovery_codes_left: 9,
    });
    // A wrong password never reaches the code, and says nothing about it.
    expect((await post('/api/admin/login', { email: staff.email, password: 'not it', code })).json().detail).toBe(
      'Invalid email or password',
    );
  });

  it('counts wrong codes like wrong passwords: 429 after a few', async () => {
    const staff = await withTwoFactor('editor');
    const from = '10.67.0.1';
    const answers: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      answers.push((await post('/api/admin/login', { email: staff.email, password: staff.password, code: '999999' }, {}, from)).statusCode);
    }
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('lets owners require it of every staff member, who may then only set it up, and never turn it off', async () => {
    const plainOwner = await t.loginAsStaff({ email: uniqueEmail('plain-owner') });
    const plainHeaders = { authorization: `Bearer ${plainOwner.token}` };
    expect((await post('/api/admin/two-factor/required', { required: true }, plainHeaders)).json().detail).toBe(TWO_FACTOR_OWN_FIRST);
    const owner = await withTwoFactor('owner');
    const editor = await withTwoFactor('editor');
    const latecomer = await t.loginAsStaff({ role: 'editor', email: uniqueEmail('latecomer') });
    const lateHeaders = { authorization: `Bearer ${latecomer.token}` };
    expect((await post('/api/admin/two-factor/required', { required: true }, editor.headers)).statusCode).toBe(403);
    expect((await post('/api/admin/two-factor/required', { required: true }, owner.headers)).json()).toEqual({ success: true });
    try {
      // Without it set up, a staff member may do nothing but set it up.
      const refused = await t.app.inject({ url: '/api/admin/files', headers: lateHeaders });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe(TWO_FACTOR_SETUP_FIRST);
      expect((await t.app.inject({ url: '/api/admin/session', headers: lateHeaders })).json().two_factor_setup_needed).toBe(true);
      const { secret } = (await post('/api/admin/two-factor/setup', {}, lateHeaders)).json() as { secret: string };
      expect((await post('/api/admin/two-factor/enable', { code: codeOf(secret) }, lateHeaders)).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/api/admin/files', headers: lateHeaders })).statusCode).toBe(200);
      // Required, it cannot be turned off.
      const off = await post('/api/admin/two-factor/disable', { code: codeOf(editor.secret, 1) }, editor.headers);
      expect(off.statusCode).toBe(403);
      expect(off.json().detail).toBe(TWO_FACTOR_REQUIRED_FOR_STAFF);
    } finally {
      await post('/api/admin/two-factor/required', { required: false }, owner.headers);
    }
    // Once not required, its owner turns it off with a code, and signs in with the password alone.
    expect((await post('/api/admin/two-factor/disable', { code: editor.codes[3]! }, editor.headers)).json()).toEqual({ success: true });
    expect((await post('/api/admin/login', { email: editor.email, password: editor.password })).statusCode).toBe(200);
  });
});
