import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRONG_PASSWORD } from '../../common/account.contract.ts';
import { TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG } from '../../common/auth.contract.ts';
import { SECOND_FACTOR_LOCK, STAFF_CURRENT_PASSWORD_LIMITS } from '../../common/limits.ts';
import { TWO_FACTOR_NOT_LOCKED, TWO_FACTOR_OWN_FIRST, TWO_FACTOR_REQUIRED_FOR_STAFF } from '../../common/two-factor.contract.ts';
import { OWNER_ONLY, TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import { totpCode } from '../../server/auth/totp.ts';
import { startPageApp } from '../helpers/page-app.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/test-app.ts';

// Staff two-factor sign-in: a code from an authenticator app after the password, recovery codes for a
// lost phone, and owners who require it of everyone.

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ seed: false, env: { SMTP_URL: smtp.url }, mailTiming: { pollMs: 200, retryBaseMs: 200 } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let nextAddress = 0;
const post = (url: string, payload: object, headers: Record<string, string> = {}, from = `10.66.0.${++nextAddress}`) =>
  t.app.inject({ method: 'POST', url, payload, headers, remoteAddress: from });
/** The app's code for the current 30-second step, or one step on (both are taken; each works once). */
const codeOf = (secret: string, stepsAhead = 0) => totpCode(secret, Math.floor(Date.now() / 30_000) + stepsAhead);
/** Six digits that are none of the codes the app takes now. */
const wrongCodeFor = (secret: string) =>
  ['000000', '000001', '000002'].find((code) => ![-1, 0, 1].some((step) => codeOf(secret, step) === code))!;
const TOO_MANY = /^Too many attempts\. Please wait \d+ (seconds|minutes) and try again\.$/;
const LOCKED =
  /^Too many attempts\. Please wait \d+ hours and try again: wrong codes locked two-factor sign-in of this account\. An owner can lift the lock sooner\.$/;

/**
 * A staff member who turned two-factor sign-in on: their secret and recovery codes. With
 * `wrongCodeFirst`, a wrong first code is refused before the right one (it stays counted).
 */
async function withTwoFactor(role: 'owner' | 'editor', { wrongCodeFirst = false } = {}) {
  const staff = await t.loginAsStaff({ role, email: uniqueEmail(`2fa-${role}`) });
  const headers = { authorization: `Bearer ${staff.token}` };
  const setup = await post('/api/admin/two-factor/setup', {}, headers);
  expect(setup.statusCode).toBe(200);
  const { secret, uri } = setup.json() as { secret: string; uri: string };
  expect(uri).toBe(
    `otpauth://totp/RealtyPocket%3A${encodeURIComponent(staff.email)}?secret=${secret}&issuer=RealtyPocket&algorithm=SHA1&digits=6&period=30`,
  );
  const password = staff.password;
  if (wrongCodeFirst)
    expect((await post('/api/admin/two-factor/enable', { code: wrongCodeFor(secret), password }, headers)).json().detail).toBe(
      TWO_FACTOR_CODE_WRONG,
    );
  const enabled = await post('/api/admin/two-factor/enable', { code: codeOf(secret), password }, headers);
  expect(enabled.statusCode).toBe(200);
  const codes = enabled.json().recovery_codes as string[];
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  return { ...staff, headers, secret, codes };
}

describe('two-factor sign-in', () => {
  it('asks for the code after the right password, takes each code once, and a recovery code once', async () => {
    const staff = await withTwoFactor('editor', { wrongCodeFirst: true });
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
      locked_until: null,
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
      const enabled = await post('/api/admin/two-factor/enable', { code: codeOf(secret), password: latecomer.password }, lateHeaders);
      expect(enabled.statusCode).toBe(200);
      expect((await t.app.inject({ url: '/api/admin/files', headers: lateHeaders })).statusCode).toBe(200);
      // Required, it cannot be turned off.
      const off = await post(
        '/api/admin/two-factor/disable',
        { code: codeOf(editor.secret, 1), password: editor.password },
        editor.headers,
      );
      expect(off.statusCode).toBe(403);
      expect(off.json().detail).toBe(TWO_FACTOR_REQUIRED_FOR_STAFF);
    } finally {
      await post('/api/admin/two-factor/required', { required: false }, owner.headers);
    }
    // Once not required, its owner turns it off with a code and the password, and signs in with the password alone.
    const off = await post('/api/admin/two-factor/disable', { code: editor.codes[3]!, password: editor.password }, editor.headers);
    expect(off.json()).toEqual({ success: true });
    expect((await post('/api/admin/login', { email: editor.email, password: editor.password })).statusCode).toBe(200);
  });
});

describe('a stolen staff session', () => {
  it('cannot enrol the thief’s authenticator without the password', async () => {
    const staff = await t.loginAsStaff({ role: 'editor', email: uniqueEmail('enrol') });
    const headers = { authorization: `Bearer ${staff.token}` };
    const { secret } = (await post('/api/admin/two-factor/setup', {}, headers)).json() as { secret: string };
    const missing = await post('/api/admin/two-factor/enable', { code: codeOf(secret) }, headers);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toBe('Enter your current password');
    const wrong = await post('/api/admin/two-factor/enable', { code: codeOf(secret), password: 'the thief guesses' }, headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().detail).toBe(WRONG_PASSWORD);
    expect((await t.app.inject({ url: '/api/admin/two-factor', headers })).json().enabled).toBe(false);
    // The owner still signs in with the password alone.
    expect((await post('/api/admin/login', { email: staff.email, password: staff.password })).statusCode).toBe(200);
  });

  it('cannot turn two-factor off by guessing codes: each try costs the password, limited, then 429', async () => {
    const staff = await withTwoFactor('editor');
    const answers: number[] = [];
    // From a new address each time: the limit is the account's.
    for (let guess = 0; guess <= STAFF_CURRENT_PASSWORD_LIMITS.perAccount.max; guess++) {
      const response = await post(
        '/api/admin/two-factor/disable',
        { code: String(100000 + guess), password: `guess ${guess}` },
        staff.headers,
      );
      answers.push(response.statusCode);
      if (response.statusCode === 400) expect(response.json().detail).toBe(WRONG_PASSWORD);
      else expect(response.json().detail).toMatch(TOO_MANY);
    }
    expect(answers).toEqual([...Array(STAFF_CURRENT_PASSWORD_LIMITS.perAccount.max).fill(400), 429]);
    // Past the limit, the right password and a right code wait too.
    const refused = await post('/api/admin/two-factor/disable', { code: staff.codes[0]!, password: staff.password }, staff.headers);
    expect(refused.statusCode).toBe(429);
    expect((await t.app.inject({ url: '/api/admin/two-factor', headers: staff.headers })).json()).toMatchObject({
      enabled: true,
      recovery_codes_left: 10,
    });
  });

  it('cannot make new recovery codes, nor change the email or the password, without the password', async () => {
    const staff = await withTwoFactor('editor');
    const asked = async (url: string, payload: object) => {
      const response = await post(url, payload, staff.headers);
      return { status: response.statusCode, detail: response.json().detail as string };
    };
    const wrongPassword = { status: 400, detail: WRONG_PASSWORD };
    expect(await asked('/api/admin/two-factor/recovery-codes', { code: staff.codes[0]!, password: 'nope' })).toEqual(wrongPassword);
    const thief = uniqueEmail('thief');
    expect(await asked('/api/admin/account/email', { email: thief, password: 'nope' })).toEqual(wrongPassword);
    expect(await asked('/api/admin/account/password', { current_password: 'nope', new_password: 'thief password' })).toEqual(wrongPassword);
    expect(await asked('/api/admin/account/email', { email: thief })).toEqual({ status: 400, detail: 'Enter your current password' });
    // Nothing changed: the old recovery codes, the address and the password still work.
    expect((await post('/api/admin/login', { email: staff.email, password: staff.password, code: staff.codes[1]! })).statusCode).toBe(200);

    // With the password: new codes replace the old ones.
    const fresh = await post('/api/admin/two-factor/recovery-codes', { code: staff.codes[0]!, password: staff.password }, staff.headers);
    expect(fresh.statusCode).toBe(200);
    const codes = fresh.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect((await post('/api/admin/login', { email: staff.email, password: staff.password, code: staff.codes[2]! })).statusCode).toBe(401);
    expect((await post('/api/admin/login', { email: staff.email, password: staff.password, code: codes[0]! })).statusCode).toBe(200);

    // The email, at once, with a notice to the old address.
    const moved = uniqueEmail('moved');
    const email = await post('/api/admin/account/email', { email: moved, password: staff.password }, staff.headers);
    expect(email.json()).toEqual({ success: true, message: `Your email is now ${moved}: sign in with it from now on.` });
    const [notice] = await smtp.waitFor(staff.email);
    expect(notice!.subject).toBe('Your email address was changed');
    expect(notice!.text).toContain(moved);

    // The password: every session of the account ends, this one too, and the account is told.
    const changed = await post(
      '/api/admin/account/password',
      { current_password: staff.password, new_password: 'a brand new password' },
      staff.headers,
    );
    expect(changed.json()).toEqual({ success: true });
    expect((await t.app.inject({ url: '/api/admin/session', headers: staff.headers })).statusCode).toBe(401);
    await expect.poll(() => smtp.to(moved).some((mail) => mail.subject === 'Your password was changed'), { timeout: 10_000 }).toBe(true);
    const again = await post('/api/admin/login', { email: moved, password: 'a brand new password', code: codes[1]! });
    expect(again.statusCode).toBe(200);
  });
});

describe('codes walked from many client addresses', () => {
  it('are stopped per account: the tenth wrong one locks its codes, the account is mailed, and only an owner lifts the lock', async () => {
    const staff = await withTwoFactor('editor');
    const wrong = wrongCodeFor(staff.secret);
    const answers: number[] = [];
    // Each guess from an address of its own, with the right password: no per-address limit ever trips.
    for (let guess = 1; guess <= SECOND_FACTOR_LOCK.maxFailures; guess++) {
      const response = await post(
        '/api/admin/login',
        { email: staff.email, password: staff.password, code: wrong },
        {},
        `10.70.0.${guess}`,
      );
      answers.push(response.statusCode);
      if (guess === SECOND_FACTOR_LOCK.maxFailures) expect(response.json().detail).toMatch(LOCKED);
    }
    expect(answers).toEqual([...Array(SECOND_FACTOR_LOCK.maxFailures - 1).fill(401), 429]);
    // Now even the right code is refused, from a new address, and at the disable route.
    const right = await post(
      '/api/admin/login',
      { email: staff.email, password: staff.password, code: codeOf(staff.secret, 1) },
      {},
      '10.70.1.1',
    );
    expect(right.statusCode).toBe(429);
    expect(right.json().detail).toMatch(LOCKED);
    const off = await post('/api/admin/two-factor/disable', { code: staff.codes[0]!, password: staff.password }, staff.headers);
    expect(off.statusCode).toBe(429);
    expect((await t.app.inject({ url: '/api/admin/two-factor', headers: staff.headers })).json().locked_until).toEqual(expect.any(String));

    // The account is told, by mail, once.
    const [mail] = await smtp.waitFor(staff.email);
    expect(mail!.subject).toBe('Two-factor sign-in of your RealtyPocket admin account is locked');
    expect(mail!.text).toContain('10 wrong two-factor codes');
    expect(mail!.text).toContain('/admin/forgot-password');

    // The owners see it in the staff list; an editor may not lift it, an owner may (recorded).
    const owner = await t.loginAsStaff({ email: uniqueEmail('lifting-owner') });
    const ownerHeaders = { authorization: `Bearer ${owner.token}` };
    const editor = await t.loginAsStaff({ role: 'editor', email: uniqueEmail('not-lifting') });
    const lift = (headers: Record<string, string>) =>
      t.app.inject({ method: 'DELETE', url: `/api/admin/staff/${staff.id}/two-factor-lock`, headers });
    const listed = (await t.app.inject({ url: '/api/admin/staff', headers: ownerHeaders })).json() as {
      id: string;
      two_factor_locked_until: string | null;
    }[];
    expect(listed.find((row) => row.id === staff.id)?.two_factor_locked_until).toEqual(expect.any(String));
    const refused = await lift({ authorization: `Bearer ${editor.token}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(OWNER_ONLY);
    const lifted = await lift(ownerHeaders);
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toMatchObject({ id: staff.id, two_factor_locked_until: null });
    const activity = (await t.app.inject({ url: '/api/admin/activity', headers: ownerHeaders })).json() as { action: string }[];
    expect(activity.find((entry) => entry.action === 'staff.two-factor-unlock')).toMatchObject({
      actor_email: owner.email,
      target: staff.email,
    });
    expect(activity.find((entry) => entry.action === 'staff.two-factor-lock')).toMatchObject({ target: staff.email });
    expect((await lift(ownerHeaders)).json().detail).toBe(TWO_FACTOR_NOT_LOCKED);

    const back = await post(
      '/api/admin/login',
      { email: staff.email, password: staff.password, code: codeOf(staff.secret, 1) },
      {},
      '10.70.1.2',
    );
    expect(back.statusCode).toBe(200);
    expect(smtp.to(staff.email)).toHaveLength(1);
  });

  it('are not forgiven by the owner’s right code meanwhile: the tenth wrong one still locks', async () => {
    const staff = await withTwoFactor('editor');
    const wrong = wrongCodeFor(staff.secret);
    const guess = (address: string) => post('/api/admin/login', { email: staff.email, password: staff.password, code: wrong }, {}, address);
    for (let n = 1; n < SECOND_FACTOR_LOCK.maxFailures; n++) expect((await guess(`10.72.0.${n}`)).statusCode).toBe(401);
    // The owner of the account signs in with a right code, between the guesses.
    const owner = await post(
      '/api/admin/login',
      { email: staff.email, password: staff.password, code: codeOf(staff.secret, 1) },
      {},
      '10.72.1.1',
    );
    expect(owner.statusCode).toBe(200);
    const tenth = await guess('10.72.0.99');
    expect(tenth.statusCode).toBe(429);
    expect(tenth.json().detail).toMatch(LOCKED);
  });

  it('are counted in full when sent all at once: no guess past the tenth is checked, and the mail goes once', async () => {
    const staff = await withTwoFactor('editor');
    const taken = new Set([-1, 0, 1].map((step) => codeOf(staff.secret, step)));
    const guesses = Array.from({ length: 30 }, (_, index) => String(200000 + index))
      .filter((code) => !taken.has(code))
      .slice(0, 24);
    const answers = await Promise.all(
      guesses.map((code, index) =>
        post('/api/admin/login', { email: staff.email, password: staff.password, code }, {}, `10.71.0.${index + 1}`),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThan(SECOND_FACTOR_LOCK.maxFailures);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    await smtp.waitFor(staff.email);
    // A moment for any second message to arrive: there is none.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(smtp.to(staff.email)).toHaveLength(1);
  });
});

describe('the Security and Staff tabs', () => {
  it('ask for the current password in every form that needs it, and show owners a locked account with its Lift the lock action', async () => {
    const site = await startPageApp(t);
    try {
      const staff = await withTwoFactor('editor');
      const cookie = (token: string) => ({ cookie: `rp_staff=${token}` });
      // A form as the page's script sends it (its answer is the action's data, messages included).
      const submit = (path: string, token: string, fields: Record<string, string>) =>
        site.app.inject({
          method: 'POST',
          url: `${path}.data`,
          headers: { ...cookie(token), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        });
      const security = (await site.app.inject({ url: '/admin/dashboard/security', headers: cookie(staff.token) })).body;
      // Turning it off, new recovery codes, the email and the password: each asks for the password, labelled, for password managers.
      expect(security.match(/autoComplete="current-password"|autocomplete="current-password"/g)).toHaveLength(4);
      for (const form of ['Turn off two-factor sign-in', 'New recovery codes', 'Change your email', 'Change your password']) {
        expect(security).toContain(`aria-label="${form}"`);
      }
      expect(security).toContain('>Current password</label>');

      const withoutPassword = await submit('/admin/dashboard/security', staff.token, { intent: 'disable', code: staff.codes[0]! });
      expect(withoutPassword.statusCode).toBe(400);
      expect(withoutPassword.body).toContain('Enter your current password');
      const wrong = await submit('/admin/dashboard/security', staff.token, { intent: 'disable', code: staff.codes[0]!, password: 'nope' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain(WRONG_PASSWORD);
      const status = () => t.app.inject({ url: '/api/admin/two-factor', headers: staff.headers }).then((response) => response.json());
      expect((await status()).enabled).toBe(true);

      // Locked by wrong codes from many addresses: the staff member's tab says so, and the owners' Staff tab offers to lift it.
      const wrongCode = wrongCodeFor(staff.secret);
      for (let guess = 1; guess <= SECOND_FACTOR_LOCK.maxFailures; guess++) {
        await post('/api/admin/login', { email: staff.email, password: staff.password, code: wrongCode }, {}, `10.72.0.${guess}`);
      }
      expect((await site.app.inject({ url: '/admin/dashboard/security', headers: cookie(staff.token) })).body).toContain(
        'Too many wrong codes: every code for your account is refused until',
      );
      const owner = await t.loginAsStaff({ email: uniqueEmail('tab-owner') });
      const editor = await t.loginAsStaff({ role: 'editor', email: uniqueEmail('tab-editor') });
      const staffTab = (await site.app.inject({ url: '/admin/dashboard/staff', headers: cookie(owner.token) })).body;
      expect(staffTab).toContain(`aria-label="Lift the lock on ${staff.email}"`);
      expect(staffTab).toContain('Two-factor sign-in locked until');
      const byEditor = await submit('/admin/dashboard/staff', editor.token, { intent: 'lift-lock', staffId: staff.id });
      expect(byEditor.statusCode).toBe(403);
      expect((await status()).locked_until).toEqual(expect.any(String));
      const lifted = await submit('/admin/dashboard/staff', owner.token, { intent: 'lift-lock', staffId: staff.id });
      expect(lifted.statusCode).toBe(200);
      expect(lifted.body).toContain(`${staff.email} can use their two-factor codes again.`);
      expect((await status()).locked_until).toBeNull();

      const off = await submit('/admin/dashboard/security', staff.token, {
        intent: 'disable',
        code: staff.codes[0]!,
        password: staff.password,
      });
      expect(off.statusCode).toBe(200);
      expect((await status()).enabled).toBe(false);

      // A new password signs every device out, this one too: the page sends its staff member to sign in again.
      const changed = await submit('/admin/dashboard/security', staff.token, {
        intent: 'password',
        current_password: staff.password,
        new_password: 'a password of my own',
      });
      expect(changed.body).toContain('"redirect","/admin/login"');
      expect(changed.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^rp_staff=;/)]));
      expect((await t.app.inject({ url: '/api/admin/session', headers: staff.headers })).statusCode).toBe(401);
    } finally {
      await site.close();
    }
  });
});
