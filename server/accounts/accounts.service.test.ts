import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { RESET_LINK_INVALID, RESET_REQUESTED, VERIFY_LINK_INVALID, WRONG_PASSWORD } from '../../common/account.contract.ts';
import { EMAIL_TAKEN, INVALID_CREDENTIALS } from '../../common/auth.contract.ts';
import { CURRENT_PASSWORD_LIMITS, MEMBER_AUTH_LIMITS, STAFF_LOGIN_LIMITS } from '../../common/limits.ts';
import type { Tier } from '../../common/tiers.ts';
import type { Viewer } from '../../common/viewer.ts';
import { accountTokens, members, outboxMessages, unsubscribeLinks, type ACCOUNT_TOKEN_PURPOSES } from '../../db/schema.ts';
import { lastAuditEntry, refusal, serviceTestApp, SIGN_IN_FIRST, TOO_MANY_ATTEMPTS } from '../../tests/helpers/service-tests.ts';
import { uniqueEmail } from '../../tests/helpers/test-app.ts';
import { generateSessionToken, hashSessionToken } from '../sessions/tokens.ts';

// A member's account beyond signing in (resets, confirmations, settings, deletion), called in process;
// the HTTP contract is tests/api/email.test.ts and tests/api/account-security.test.ts.

const t = serviceTestApp();

const account = () => t.app.services.account;
const NEW_PASSWORD = 'a brand new password';
const WRONG = { status: 400, message: WRONG_PASSWORD };
const LINK_INVALID = { status: 400, message: RESET_LINK_INVALID };
const CONFIRMATION_INVALID = { status: 400, message: VERIFY_LINK_INVALID };
const signIn = (from: Viewer, email: string, password: string) => t.app.services.auth.signIn(from, { email, password });
let lastAddress = 0;
const visitor = () => t.asVisitor(`10.30.0.${++lastAddress}`);

/** A member signed in from an address of their own, with the password the test knows. */
async function signedIn(tier: Tier = 'free') {
  const login = await t.loginAs(tier);
  return { login, viewer: await t.viewerOf(login.token, `10.31.0.${++lastAddress}`) };
}

/** A working single-use link, as the mail worker mints one when it sends the message that carries it. */
async function linkFor(
  purpose: (typeof ACCOUNT_TOKEN_PURPOSES)[number],
  owner: { memberId: string } | { staffId: string },
  newEmail?: string,
) {
  const token = generateSessionToken();
  const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
  await t.db.insert(accountTokens).values({ purpose, ...owner, tokenHash: hashSessionToken(token), expiresAt, newEmail });
  return token;
}

/** The kinds of mail queued to this address, oldest first. */
const mailTo = async (address: string) =>
  (await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, address)).orderBy(outboxMessages.createdAt)).map(
    (row) => row.kind,
  );
const accountOf = async (memberId: string) => (await t.db.select().from(members).where(eq(members.id, memberId)))[0];

describe('password resets', () => {
  it('answers every request alike, queues a reset written only when sent, and takes three an hour per email address', async () => {
    const { login } = await signedIn();
    const unknown = uniqueEmail('nobody');
    for (const email of [login.email, unknown]) {
      expect(await account().requestPasswordReset(visitor(), email)).toEqual({ success: true, message: RESET_REQUESTED });
      const [queued] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, email));
      expect(queued).toMatchObject({ kind: 'password-reset', linkGrant: { kind: 'password-reset', account: 'member' } });
    }
    await account().requestPasswordReset(visitor(), unknown);
    await account().requestPasswordReset(visitor(), unknown);
    expect(await refusal(account().requestPasswordReset(visitor(), unknown))).toEqual(TOO_MANY_ATTEMPTS);
    expect(await account().requestStaffPasswordReset(visitor(), unknown)).toEqual({ success: true, message: RESET_REQUESTED });
    expect(await mailTo(unknown)).toEqual(['password-reset', 'password-reset', 'password-reset', 'staff-password-reset']);
  });

  it('sets the new password with a working link, once, signs every device out and lifts the sign-in lockout', async () => {
    const { login } = await signedIn('silver');
    const from = visitor();
    for (let attempt = 0; attempt < MEMBER_AUTH_LIMITS.perAccountAndAddress.max; attempt++)
      await signIn(from, login.email, 'a guess').catch(() => {});
    expect(await refusal(signIn(from, login.email, login.password))).toEqual(TOO_MANY_ATTEMPTS);
    const token = await linkFor('password_reset', { memberId: login.memberId });
    await account().resetPassword(from, { token, password: NEW_PASSWORD });
    expect(await t.app.sessions.resolve(login.token)).toBeNull();
    await expect(signIn(from, login.email, NEW_PASSWORD)).resolves.toBeTruthy();
    expect(await refusal(signIn(from, login.email, login.password))).toEqual({ status: 401, message: INVALID_CREDENTIALS });
    expect(await mailTo(login.email)).toEqual(['password-changed']);
    expect(await refusal(account().resetPassword(from, { token, password: 'yet another one' }))).toEqual(LINK_INVALID);
    expect(await refusal(account().resetPassword(from, { token: generateSessionToken(), password: NEW_PASSWORD }))).toEqual(LINK_INVALID);
  });

  it("keeps members' and staff links apart; a staff reset is recorded, ends the sessions and lifts the lockout", async () => {
    const { login } = await signedIn();
    const staff = await t.loginAsStaff({ role: 'editor' });
    const staffLink = await linkFor('password_reset', { staffId: staff.id });
    expect(await refusal(account().resetPassword(visitor(), { token: staffLink, password: NEW_PASSWORD }))).toEqual(LINK_INVALID);
    const memberLink = await linkFor('password_reset', { memberId: login.memberId });
    expect(await refusal(account().resetStaffPassword(visitor(), { token: memberLink, password: NEW_PASSWORD }))).toEqual(LINK_INVALID);
    expect(await t.app.sessions.resolve(login.token)).not.toBeNull();

    const from = visitor();
    const staffSignIn = (password: string) => t.app.services.auth.staffSignIn(from, { email: staff.email, password });
    for (let attempt = 0; attempt < STAFF_LOGIN_LIMITS.perAccountAndAddress.max; attempt++) await staffSignIn('a guess').catch(() => {});
    expect(await refusal(staffSignIn(staff.password))).toEqual(TOO_MANY_ATTEMPTS);
    await account().resetStaffPassword(from, { token: staffLink, password: NEW_PASSWORD });
    expect(await t.app.sessions.resolve(staff.token)).toBeNull();
    await expect(staffSignIn(NEW_PASSWORD)).resolves.toMatchObject({ email: staff.email });
    expect(await lastAuditEntry(t, { action: 'staff.password-reset' })).toMatchObject({
      target: staff.id,
      actorEmail: 'password reset link',
    });
  });
});

describe('the email address', () => {
  it('is confirmed by its own link, once; a link for something else confirms nothing', async () => {
    const { login } = await signedIn();
    const otherPurpose = await linkFor('password_reset', { memberId: login.memberId });
    expect(await refusal(account().verifyEmail(t.asVisitor(), otherPurpose))).toEqual(CONFIRMATION_INVALID);
    const token = await linkFor('email_verification', { memberId: login.memberId });
    await account().verifyEmail(t.asVisitor(), token);
    expect(t.app.services.auth.me(await t.viewerOf(login.token)).email_verified).toBe(true);
    expect(await refusal(account().verifyEmail(t.asVisitor(), token))).toEqual(CONFIRMATION_INVALID);
  });

  it('gets a new confirmation link on request, three an hour, and a confirmed one gets none', async () => {
    expect(await refusal(account().resendVerification(visitor()))).toEqual(SIGN_IN_FIRST);
    const { login, viewer } = await signedIn();
    const sent = { success: true, message: `We sent a new confirmation link to ${login.email}.` };
    for (let request = 0; request < 3; request++) expect(await account().resendVerification(viewer)).toEqual(sent);
    expect(await refusal(account().resendVerification(viewer))).toEqual(TOO_MANY_ATTEMPTS);
    const [queued] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, login.email));
    expect(queued).toMatchObject({ kind: 'verify-email', linkGrant: { purpose: 'email_verification', memberId: login.memberId } });

    const confirmed = await signedIn();
    await t.db.update(members).set({ emailVerifiedAt: new Date() }).where(eq(members.id, confirmed.login.memberId));
    const answer = await account().resendVerification(await t.viewerOf(confirmed.login.token));
    expect(answer.message).toBe('Your email address is already confirmed.');
    expect(await mailTo(confirmed.login.email)).toEqual([]);
  });

  it('changes only through a link sent to the new address, asked for with the current password', async () => {
    const { login, viewer } = await signedIn();
    const taken = await t.loginAs('gold');
    const next = uniqueEmail('moving');
    expect(await refusal(account().requestEmailChange(viewer, { email: next, password: 'not it' }))).toEqual(WRONG);
    const same = account().requestEmailChange(viewer, { email: login.email.toUpperCase(), password: login.password });
    expect(await refusal(same)).toEqual({ status: 400, message: 'That is already your email address.' });
    const clash = account().requestEmailChange(viewer, { email: taken.email.toUpperCase(), password: login.password });
    expect(await refusal(clash)).toEqual({ status: 409, message: EMAIL_TAKEN });

    const answer = await account().requestEmailChange(viewer, { email: next, password: login.password });
    expect(answer.message).toBe(`We sent a confirmation link to ${next}. Your email changes once you open it.`);
    const [confirm] = await t.db.select().from(outboxMessages).where(eq(outboxMessages.toAddress, next));
    expect(confirm).toMatchObject({
      kind: 'email-change-confirm',
      linkGrant: { purpose: 'email_change', memberId: login.memberId, newEmail: next },
    });
    expect(await mailTo(login.email)).toEqual(['email-change-notice']);
    expect((await accountOf(login.memberId))!.email).toBe(login.email);
  });

  it('moves on confirmation, keeps only the confirming device signed in, and tells the old address', async () => {
    const { login, viewer } = await signedIn('bronze');
    const other = await t.app.sessions.create({ kind: 'member', memberId: login.memberId });
    const next = uniqueEmail('moved');
    const token = await linkFor('email_change', { memberId: login.memberId }, next);
    await account().confirmEmailChange(viewer, token);
    expect(await accountOf(login.memberId)).toMatchObject({ email: next, emailVerifiedAt: expect.any(Date) });
    expect(await t.app.sessions.resolve(login.token)).not.toBeNull();
    expect(await t.app.sessions.resolve(other.token)).toBeNull();
    expect(await mailTo(login.email)).toEqual(['email-changed']);
    expect(await refusal(account().confirmEmailChange(viewer, token))).toEqual(CONFIRMATION_INVALID);

    // An address someone else took since the link was sent stays theirs.
    const late = await signedIn();
    const stale = await linkFor('email_change', { memberId: late.login.memberId }, next.toUpperCase());
    expect(await refusal(account().confirmEmailChange(late.viewer, stale))).toEqual({ status: 409, message: EMAIL_TAKEN });
    expect((await accountOf(late.login.memberId))!.email).toBe(late.login.email);
  });
});

describe('settings and leaving', () => {
  it('renames the member who asks, and nobody for a visitor', async () => {
    const { login, viewer } = await signedIn();
    expect(await refusal(account().changeName(visitor(), 'Nobody'))).toEqual(SIGN_IN_FIRST);
    await account().changeName(viewer, 'Jordan Broker');
    expect((await accountOf(login.memberId))!.name).toBe('Jordan Broker');
  });

  it('changes the password with the current one, ends the other sessions and sends a notice', async () => {
    const { login, viewer } = await signedIn('gold');
    const other = await t.app.sessions.create({ kind: 'member', memberId: login.memberId });
    expect(await refusal(account().changePassword(viewer, { current_password: 'not it', new_password: NEW_PASSWORD }))).toEqual(WRONG);
    expect(await account().changePassword(viewer, { current_password: login.password, new_password: NEW_PASSWORD })).toBe(1);
    expect(await t.app.sessions.resolve(other.token)).toBeNull();
    expect(await t.app.sessions.resolve(login.token)).not.toBeNull();
    await expect(signIn(visitor(), login.email, NEW_PASSWORD)).resolves.toBeTruthy();
    expect(await mailTo(login.email)).toEqual(['password-changed']);
  });

  it('stops checking the current password after a few wrong ones, the right one included', async () => {
    const { login, viewer } = await signedIn();
    for (let attempt = 0; attempt < CURRENT_PASSWORD_LIMITS.perMember.max; attempt++) {
      expect(await refusal(account().deleteAccount(viewer, `guess ${attempt}`))).toEqual(WRONG);
    }
    expect(await refusal(account().changePassword(viewer, { current_password: login.password, new_password: NEW_PASSWORD }))).toEqual(
      TOO_MANY_ATTEMPTS,
    );
    expect(await accountOf(login.memberId)).toBeDefined();
  });

  it('deletes the account only with its password, with its sessions, and says goodbye by email', async () => {
    const { login, viewer } = await signedIn('silver');
    expect(await refusal(account().deleteAccount(viewer, 'not it'))).toEqual(WRONG);
    expect(await accountOf(login.memberId)).toBeDefined();
    await account().deleteAccount(viewer, login.password);
    expect(await accountOf(login.memberId)).toBeUndefined();
    expect(await t.app.sessions.resolve(login.token)).toBeNull();
    expect(await mailTo(login.email)).toEqual(['account-deleted']);
  });

  it('unsubscribes from optional mail with a link of the member, and refuses any other', async () => {
    const { login } = await signedIn();
    const token = generateSessionToken();
    await t.db.insert(unsubscribeLinks).values({ memberId: login.memberId, tokenHash: hashSessionToken(token) });
    expect(await refusal(account().unsubscribe(generateSessionToken()))).toEqual({
      status: 400,
      message: 'This unsubscribe link is not valid.',
    });
    expect((await accountOf(login.memberId))!.emailOptOut).toBe(false);
    await account().unsubscribe(token);
    expect((await accountOf(login.memberId))!.emailOptOut).toBe(true);
    // The link keeps working (a second click is no error).
    await expect(account().unsubscribe(token)).resolves.toBeUndefined();
  });
});
