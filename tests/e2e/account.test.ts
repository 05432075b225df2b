import { describe, expect, it } from 'vitest';
import { gotoHydrated, linkFromMail, newEmail, signInAsNewMember, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('a member who forgot their password', () => {
  it('goes from Forgot password? to the email link to signing in with the new password', async () => {
    const page = await browser.newPage();
    const { email } = await signInAsNewMember(page, 'Fern Forgetful');
    await page.context().clearCookies();

    await gotoHydrated(page, '/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send me a reset link' }).click();
    await page.getByRole('status').getByText('If an account exists for that email, we sent it a link').waitFor();

    const link = await linkFromMail(email, `${new URL(page.url()).origin}/reset-password?token=`);
    await gotoHydrated(page, link);
    await page.getByLabel('New password').fill('a fresh password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').getByText('Your password was changed.').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a fresh password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome, Fern Forgetful!' }).waitFor();

    // The link works once.
    await gotoHydrated(page, link);
    await page.getByLabel('New password').fill('yet another password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').getByText('This link has expired or was already used. Ask for a new one.').waitFor();
  });
});

describe('a new member', () => {
  it('confirms their email from the welcome message, and the dashboard banner goes away', async () => {
    const page = await browser.newPage();
    const email = newEmail('confirm');
    await gotoHydrated(page, '/signup');
    await page.getByLabel('Full Name').fill('Cora Confirm');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('confirm-me-1');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Free Account' }).click();
    await page.getByText(`Please confirm your email address: we sent a link to ${email}.`).waitFor();
    const link = await linkFromMail(email, `${new URL(page.url()).origin}/verify-email?token=`);
    // Opening the link confirms nothing (a mail scanner follows links too): the member's click does.
    await gotoHydrated(page, link);
    await gotoHydrated(page, '/dashboard');
    await page.getByText(`Please confirm your email address: we sent a link to ${email}.`).waitFor();
    await gotoHydrated(page, link);
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await page.getByText('Thank you: your email address is confirmed.').waitFor();
    await gotoHydrated(page, '/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Cora Confirm!' }).waitFor();
    expect(await page.getByText('Please confirm your email address').count()).toBe(0);
  });

  it('changes their name in the account settings, linked from the nav', async () => {
    const page = await browser.newPage();
    await signInAsNewMember(page, 'Nina Name');
    await gotoHydrated(page, '/dashboard');
    await page.locator('header').getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    await page.getByLabel('Full name').fill('Nina Newname');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.locator('[data-sonner-toast]', { hasText: 'Your name was saved.' }).waitFor();
    await page.locator('header').getByText('Welcome, Nina Newname').waitFor();
  });
});
