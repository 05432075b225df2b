import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WRONG_PASSWORD } from '../../common/account.contract.ts';
import { INVALID_CREDENTIALS, TWO_FACTOR_CODE_NEEDED, TWO_FACTOR_CODE_WRONG } from '../../common/auth.contract.ts';
import { SECOND_FACTOR_LOCK, STAFF_CURRENT_PASSWORD_LIMITS } from '../../common/limits.ts';
import { OWNER_ONLY, TWO_FACTOR_SETUP_FIRST } from '../../common/policies.ts';
import type { StaffRole } from '../../common/staff-roles.ts';
import { TWO_FACTOR_NOT_LOCKED, TWO_FACTOR_OWN_FIRST, TWO_FACTOR_REQUIRED_FOR_STAFF } from '../../common/two-factor.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { outboxMessages, staffAccounts } from '../../db/schema.ts';
import {
  expectRefusedToEveryoneBut,
  lastAuditEntry,
  refusal,
  serviceTestApp,
  TOO_MANY_ATTEMPTS,
} from '../../tests/helpers/service-tests.ts';
import { totpCode } from '../auth/totp.ts';

// Staff two-factor sign-in, and owners requiring it of everyone, called in process (the HTTP
// contract is tests/api/staff-two-factor.test.ts).

const t = serviceTestApp();

const twoFactor = () => t.app.services.twoFactor;
const WRONG_CODE = { status: 400, message: TWO_FACTOR_CODE_WRONG };
const WRONG_PASSWORD_REFUSAL = { status: 400, message: WRONG_PASSWORD };
/** The answer while wrong codes keep an account's codes locked: a 429 that says an owner can lift it. */
const LOCKED = {
  status: 429,
  message: expect.stringMatching(/^Too many attempts\. Please wait \d+ hours and try again: .*An owner can lift the lock sooner\.$/),
};
/** The app's code for the current 30-second step, or one step on (both are taken; each works once). */
const codeOf = (secret: string, stepsAhead = 0) => totpCode(secret, Math.floor(Date.now() / 30_000) + stepsAhead);
let lastAddress = 0;
const visitor = () => t.asVisitor(`10.50.0.${++lastAddress}`);

/** A staff member who turned two-factor sign-in on: their sign-in, secret, recovery codes and viewer as of now. */
async function withTwoFactor(role: StaffRole) {
  const login = await t.loginAsStaff({ role });
  const { secret } = await twoFactor().begin(await t.viewerOf(login.token));
  const { recovery_codes: codes } = await twoFactor().enable(await t.viewerOf(login.token), {
    code: codeOf(secret),
    password: login.password,
  });
  return { ...login, secret, codes, viewer: await t.viewerOf(login.token) };
}

describe('two-factor sign-in', () => {
  it('is each staff member’s own business: visitors 401, members 403', async () => {
    const calls = (viewer: Viewer) => [
      () => twoFactor().status(viewer),
      () => twoFactor().begin(viewer),
      () => twoFactor().enable(viewer, { code: '123456', password: 'a password' }),
      () => twoFactor().disable(viewer, { code: '123456', password: 'a password' }),
      () => twoFactor().newRecoveryCodes(viewer, { code: '123456', password: 'a password' }),
    ];
    await expectRefusedToEveryoneBut('staff', t, calls);
    expect(await twoFactor().status(await t.asStaff('editor'))).toEqual({
      enabled: false,
      required: false,
      recovery_codes_left: 0,
      locked_until: null,
    });
  });

  it('turns on with a code from the app just set up and the password, hands out ten recovery codes, and is recorded', async () => {
    const login = await t.loginAsStaff({ role: 'editor' });
    const viewer = await t.viewerOf(login.token);
    const password = login.password;
    const noSetup = { status: 409, message: 'Start the setup again: there is no code to check yet.' };
    expect(await refusal(twoFactor().enable(viewer, { code: '123456', password }))).toEqual(noSetup);
    const setup = await twoFactor().begin(viewer);
    expect(setup.uri).toMatch(new RegExp(`^otpauth://totp/[^?]+${encodeURIComponent(login.email)}\\?secret=${setup.secret}&`));
    expect((await twoFactor().status(viewer)).enabled).toBe(false);
    const wrong = codeOf(setup.secret) === '000000' ? '000001' : '000000';
    expect(await refusal(twoFactor().enable(viewer, { code: wrong, password }))).toEqual(WRONG_CODE);
    // A stolen session alone cannot enrol the thief's app: the right code without the password is refused.
    expect(await refusal(twoFactor().enable(viewer, { code: codeOf(setup.secret), password: 'the thief guesses' }))).toEqual(
      WRONG_PASSWORD_REFUSAL,
    );
    expect((await twoFactor().status(viewer)).enabled).toBe(false);

    const { recovery_codes: codes } = await twoFactor().enable(viewer, { code: codeOf(setup.secret), password });
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await twoFactor().status(viewer)).toEqual({ enabled: true, required: false, recovery_codes_left: 10, locked_until: null });
    expect((await t.viewerOf(login.token)).staff!.twoFactorEnabled).toBe(true);
    expect(await refusal(twoFactor().begin(viewer))).toEqual({ status: 409, message: 'Two-factor sign-in is on already.' });
    expect(await refusal(twoFactor().enable(viewer, { code: codeOf(setup.secret, 1), password }))).toEqual(noSetup);
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

  it('turns off only with a code and the password, which ends the recovery codes too', async () => {
    const staff = await withTwoFactor('editor');
    const password = staff.password;
    const wrong = staff.codes.includes('aaaaa-aaaaa') ? 'bbbbb-bbbbb' : 'aaaaa-aaaaa';
    expect(await refusal(twoFactor().disable(staff.viewer, { code: wrong, password }))).toEqual(WRONG_CODE);
    expect(await refusal(twoFactor().disable(staff.viewer, { code: staff.codes[3]!, password: 'not it' }))).toEqual(WRONG_PASSWORD_REFUSAL);
    expect((await twoFactor().status(staff.viewer)).enabled).toBe(true);
    // The wrong password never reached the code: it still works.
    await twoFactor().disable(staff.viewer, { code: staff.codes[3]!, password });
    expect(await twoFactor().status(staff.viewer)).toEqual({ enabled: false, required: false, recovery_codes_left: 0, locked_until: null });
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
    expect(await twoFactor().status(unprotected)).toEqual({ enabled: false, required: true, recovery_codes_left: 0, locked_until: null });
    await expect(twoFactor().begin(unprotected)).resolves.toMatchObject({ secret: expect.any(String) });
    expect(await refusal(twoFactor().disable(owner.viewer, { code: codeOf(owner.secret, 1), password: owner.password }))).toEqual({
      status: 403,
      message: TWO_FACTOR_REQUIRED_FOR_STAFF,
    });
    expect((await twoFactor().status(owner.viewer)).enabled).toBe(true);

    await twoFactor().setRequired(owner.viewer, false);
    expect((await twoFactor().status(unprotected)).required).toBe(false);
  });
});

describe('the password again, before a change a stolen session must not make', () => {
  it('is asked for new recovery codes, which replace the old ones, recorded', async () => {
    const staff = await withTwoFactor('editor');
    const input = { code: staff.codes[0]!, password: 'not the password' };
    expect(await refusal(twoFactor().newRecoveryCodes(staff.viewer, input))).toEqual(WRONG_PASSWORD_REFUSAL);
    const { recovery_codes: fresh } = await twoFactor().newRecoveryCodes(staff.viewer, { ...input, password: staff.password });
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => staff.codes.includes(code))).toEqual([]);
    expect((await twoFactor().status(staff.viewer)).recovery_codes_left).toBe(10);
    const signIn = (code: string) => t.app.services.auth.staffSignIn(visitor(), { email: staff.email, password: staff.password, code });
    expect(await refusal(signIn(staff.codes[1]!))).toEqual({ status: 401, message: TWO_FACTOR_CODE_WRONG });
    expect((await signIn(fresh[0]!)).email).toBe(staff.email);
    expect(await lastAuditEntry(t, { action: 'staff.recovery-codes', target: staff.email })).toMatchObject({ actorEmail: staff.email });
    const plain = await t.loginAsStaff({ role: 'editor' });
    expect(
      await refusal(twoFactor().newRecoveryCodes(await t.viewerOf(plain.token), { code: '123456', password: plain.password })),
    ).toEqual({
      status: 409,
      message: 'Two-factor sign-in is off: there are no recovery codes to replace.',
    });
  });

  it('is limited like sign-in: after a few wrong ones, 429 even with the right one, and no code is checked', async () => {
    const staff = await withTwoFactor('editor');
    const max = STAFF_CURRENT_PASSWORD_LIMITS.perAccount.max;
    // From a new address each time: the limit is the account's, wherever its session is used.
    for (let attempt = 0; attempt < max; attempt++) {
      const viewer = await t.viewerOf(staff.token, `10.51.0.${attempt + 1}`);
      expect(await refusal(twoFactor().disable(viewer, { code: '123456', password: `guess ${attempt}` }))).toEqual(WRONG_PASSWORD_REFUSAL);
    }
    const viewer = await t.viewerOf(staff.token, '10.51.1.1');
    expect(await refusal(twoFactor().disable(viewer, { code: staff.codes[0]!, password: staff.password }))).toEqual(TOO_MANY_ATTEMPTS);
    expect(await refusal(twoFactor().newRecoveryCodes(viewer, { code: staff.codes[0]!, password: staff.password }))).toEqual(
      TOO_MANY_ATTEMPTS,
    );
    expect(await twoFactor().status(viewer)).toMatchObject({ enabled: true, recovery_codes_left: 10, locked_until: null });
  });
});

describe('wrong codes, counted per account from every address', () => {
  const lockMails = (email: string) =>
    t.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.toAddress, email), eq(outboxMessages.kind, 'staff-two-factor-locked')));

  it('lock the account’s codes at the tenth, mail it once, and an owner (not an editor, not itself) lifts the lock', async () => {
    const staff = await withTwoFactor('editor');
    const wrong = codeOf(staff.secret) === '000000' ? '000001' : '000000';
    const signIn = (code: string, address: string) =>
      t.app.services.auth.staffSignIn(t.asVisitor(address), { email: staff.email, password: staff.password, code });
    // Each guess from a new address: the limits per address never see more than one.
    const answers: { status: number; message: string }[] = [];
    for (let guess = 1; guess <= SECOND_FACTOR_LOCK.maxFailures; guess++) answers.push(await refusal(signIn(wrong, `10.52.0.${guess}`)));
    expect(answers.slice(0, -1)).toEqual(Array(SECOND_FACTOR_LOCK.maxFailures - 1).fill({ status: 401, message: TWO_FACTOR_CODE_WRONG }));
    expect(answers.at(-1)).toEqual(LOCKED);
    // Locked: the right code is refused too, from anywhere, and at every route that takes a code.
    expect(await refusal(signIn(codeOf(staff.secret, 1), '10.52.1.1'))).toEqual(LOCKED);
    expect(await refusal(twoFactor().disable(staff.viewer, { code: staff.codes[0]!, password: staff.password }))).toEqual(LOCKED);
    expect((await twoFactor().status(staff.viewer)).locked_until).toEqual(expect.any(String));
    expect(await lockMails(staff.email)).toEqual([
      expect.objectContaining({
        subject: 'Two-factor sign-in of your RealtyPocket admin account is locked',
        text: expect.stringContaining('10 wrong two-factor codes'),
      }),
    ]);
    expect(await lastAuditEntry(t, { action: 'staff.two-factor-lock', target: staff.email })).toMatchObject({
      actorEmail: 'wrong two-factor codes',
    });

    const owner = await t.asStaff('owner');
    const listed = (await t.app.services.staff.list(owner)).items.find((row) => row.id === staff.id);
    expect(listed?.two_factor_locked_until).toEqual(expect.any(String));
    expect(await refusal(t.app.services.staff.liftTwoFactorLock(await t.asStaff('editor'), staff.id))).toEqual({
      status: 403,
      message: OWNER_ONLY,
    });
    expect(await refusal(t.app.services.staff.liftTwoFactorLock(owner, owner.staff.id))).toEqual({
      status: 403,
      message: 'Another owner must lift the lock on your own account.',
    });
    expect(await t.app.services.staff.liftTwoFactorLock(owner, staff.id)).toMatchObject({ id: staff.id, two_factor_locked_until: null });
    expect(await lastAuditEntry(t, { action: 'staff.two-factor-unlock', target: staff.email })).toMatchObject({
      actorEmail: owner.staff.email,
    });
    expect(await refusal(t.app.services.staff.liftTwoFactorLock(owner, staff.id))).toEqual({ status: 409, message: TWO_FACTOR_NOT_LOCKED });
    expect((await signIn(codeOf(staff.secret, 1), '10.52.1.2')).email).toBe(staff.email);
    // The count started again: nine more wrong codes do not lock it.
    for (let guess = 1; guess < SECOND_FACTOR_LOCK.maxFailures; guess++) {
      expect(await refusal(signIn(wrong, `10.52.2.${guess}`))).toEqual({ status: 401, message: TWO_FACTOR_CODE_WRONG });
    }
    expect(await lockMails(staff.email)).toHaveLength(1);
  });

  it('count every guess of a burst sent at once: none past the tenth is checked', async () => {
    const staff = await withTwoFactor('editor');
    const right = new Set([codeOf(staff.secret, -1), codeOf(staff.secret), codeOf(staff.secret, 1)]);
    // 25 wrong codes at once, each from an address of its own, every one with the right password.
    const guesses = Array.from({ length: 40 }, (_, index) => String(123456 + index).padStart(6, '0'))
      .filter((guess) => !right.has(guess))
      .slice(0, 25);
    const answers = await Promise.all(
      guesses.map((code, index) =>
        refusal(
          t.app.services.auth.staffSignIn(t.asVisitor(`10.53.0.${index + 1}`), { email: staff.email, password: staff.password, code }),
        ),
      ),
    );
    const checked = answers.filter((answer) => answer.status === 401);
    expect(checked.length).toBeLessThan(SECOND_FACTOR_LOCK.maxFailures);
    for (const answer of answers) if (answer.status !== 401) expect(answer).toEqual(LOCKED);
    expect(await lockMails(staff.email)).toHaveLength(1);
  });

  it('keep the lock a day at most: once it has passed, the right code signs in', async () => {
    const staff = await withTwoFactor('editor');
    const wrong = codeOf(staff.secret) === '000000' ? '000001' : '000000';
    for (let guess = 1; guess <= SECOND_FACTOR_LOCK.maxFailures; guess++) {
      await refusal(
        t.app.services.auth.staffSignIn(t.asVisitor(`10.54.0.${guess}`), { email: staff.email, password: staff.password, code: wrong }),
      );
    }
    const [row] = await t.db.select().from(staffAccounts).where(eq(staffAccounts.id, staff.id));
    const lockedFor = row!.secondFactorLockedUntil!.getTime() - Date.now();
    expect(lockedFor).toBeGreaterThan(SECOND_FACTOR_LOCK.lockMs - 60_000);
    expect(lockedFor).toBeLessThanOrEqual(SECOND_FACTOR_LOCK.lockMs);
    // A day on, as the database sees it.
    const dayAgo = (date: Date | null) => (date ? new Date(date.getTime() - SECOND_FACTOR_LOCK.lockMs - 1000) : null);
    await t.db
      .update(staffAccounts)
      .set({ secondFactorLockedUntil: dayAgo(row!.secondFactorLockedUntil), secondFactorFailedAt: dayAgo(row!.secondFactorFailedAt) })
      .where(eq(staffAccounts.id, staff.id));
    const signIn = (code: string) =>
      t.app.services.auth.staffSignIn(t.asVisitor('10.54.1.1'), { email: staff.email, password: staff.password, code });
    expect(await refusal(signIn(wrong))).toEqual({ status: 401, message: TWO_FACTOR_CODE_WRONG });
    expect((await signIn(codeOf(staff.secret, 1))).email).toBe(staff.email);
  });
});
