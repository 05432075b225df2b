import { NOTIFICATION_KINDS } from '../../common/notifications.contract.ts';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, pageProblems, signInAtTier, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('the notifications bell', () => {
  it('shows a member a reply in the bell on a phone, opens it from the list, and counts it read everywhere', async () => {
    const author = await signInAtTier(browser, 'bronze', 'Bell Author');
    // Only replies on the site for this member: news of courses, sessions and recordings that other
    // test files publish meanwhile would count in the bell this test reads.
    const onlyReplies = Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, { site: kind === 'reply', email: false, push: false }]));
    expect((await author.page.request.put('/api/notifications/settings', { data: { kinds: onlyReplies, digest: 'off' } })).status()).toBe(
      200,
    );
    await gotoHydrated(author.page, '/community');
    const title = `Bell test ${Date.now()}`;
    await author.page.getByLabel('Title').fill(title);
    await author.page.getByLabel('Message').fill('Who has tried video tours?');
    await author.page.getByRole('button', { name: 'Post', exact: true }).click();
    await author.page.waitForURL(/\/community\/[0-9a-f-]{36}$/);
    const postUrl = new URL(author.page.url()).pathname;
    // No news yet: a bell without a count.
    await author.page.getByRole('link', { name: 'Notifications', exact: true }).first().waitFor({ state: 'attached' });

    const replier = await signInAtTier(browser, 'silver', 'Rita Replier');
    await gotoHydrated(replier.page, postUrl);
    await replier.page.getByLabel('Your reply').fill('I film them on my phone every Friday.');
    await replier.page.getByRole('button', { name: 'Reply', exact: true }).click();
    await replier.page.locator('li[data-reply-id]', { hasText: 'every Friday' }).waitFor();

    // On the author's phone (a second device, signed in there too): the bell is in the menu, with its count.
    const phone = await browser.newPage({ mobile: true });
    const signedIn = await phone.request.post('/api/auth/login', { data: { email: author.email, password: 'member-password-1' } });
    expect(signedIn.status()).toBe(200);
    await gotoHydrated(phone, '/dashboard');
    await phone.getByRole('button', { name: 'Open menu' }).click();
    const bell = phone.getByRole('link', { name: 'Notifications, 1 unread' });
    await bell.click();
    await phone.waitForURL('**/notifications');
    const item = phone.getByTestId('notification').filter({ hasText: `Rita Replier replied to “${title}”` });
    await item.getByText('I film them on my phone every Friday.').waitFor();
    await item.getByText('New').waitFor();
    await item.getByRole('link').click();
    await phone.waitForURL(`**${postUrl}`);

    // Read on the phone: the computer's bell shows no count any more.
    await gotoHydrated(author.page, '/dashboard');
    await author.page.getByRole('link', { name: 'Notifications', exact: true }).first().waitFor({ state: 'attached' });
    expect(await author.page.getByRole('link', { name: /Notifications, \d+ unread/ }).count()).toBe(0);
    await gotoHydrated(author.page, '/notifications');
    expect(await author.page.getByTestId('notification').filter({ hasText: 'New' }).count()).toBe(0);
    expect([...pageProblems(author.page), ...pageProblems(phone), ...pageProblems(replier.page)]).toEqual([]);
  });

  it('keeps the member’s choices on the settings page', async () => {
    const member = await signInAtTier(browser, 'silver', 'Settings Sam');
    await gotoHydrated(member.page, '/notifications/settings');
    await member.page.getByRole('heading', { name: 'Notification settings' }).waitFor();
    const likesByEmail = member.page.getByRole('checkbox', { name: 'Likes of your discussions (grouped): By email' });
    expect(await likesByEmail.isChecked()).toBe(false);
    await likesByEmail.check();
    await member.page.getByLabel('Replies, mentions and likes by email').selectOption('weekly');
    await member.page.getByRole('button', { name: 'Save settings' }).click();
    await member.page.getByText('Your notification settings are saved.').waitFor();
    await gotoHydrated(member.page, '/notifications/settings');
    expect(await member.page.getByRole('checkbox', { name: 'Likes of your discussions (grouped): By email' }).isChecked()).toBe(true);
    expect(await member.page.getByLabel('Replies, mentions and likes by email').inputValue()).toBe('weekly');
    expect(pageProblems(member.page)).toEqual([]);
  });
});
