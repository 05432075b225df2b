import { describe, expect, it } from 'vitest';
import type { Tier } from '../../common/tiers.ts';
import { gotoHydrated, mailTo, pageProblems, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

const browser = useBrowser();

const memberAt = (tier: Tier, name: string) => signInAtTier(browser, tier, name);

describe('taking part in the community', () => {
  it('has a Bronze member post, a Gold member reply and like, and the author hear of it on the dashboard and by email', async () => {
    const bronze = await memberAt('bronze', 'Bella Bronze');
    await gotoHydrated(bronze.page, '/community');
    await bronze.page.getByRole('heading', { name: 'Start a discussion' }).waitFor();
    const title = `Open house tips ${Date.now()}`;
    // Markup in a member's text is shown as text; a web address becomes a link.
    const body = 'What works for you? <script>window.hacked = true</script> I follow https://example.com/open-house-guide';
    await bronze.page.getByLabel('Title').fill(title);
    await bronze.page.getByLabel('Message').fill(body);
    await bronze.page.getByRole('button', { name: 'Post', exact: true }).click();
    await bronze.page.waitForURL(/\/community\/[0-9a-f-]{36}$/);
    await toast(bronze.page, 'Your discussion is posted.');
    const postUrl = new URL(bronze.page.url()).pathname;
    expect(await bronze.page.locator('h1').textContent()).toBe(title);
    await bronze.page.locator('article p', { hasText: '<script>window.hacked = true</script>' }).first().waitFor();
    expect(await bronze.page.evaluate(() => (window as Window & { hacked?: boolean }).hacked)).toBeUndefined();
    expect(await bronze.page.getByRole('link', { name: 'https://example.com/open-house-guide' }).getAttribute('rel')).toContain('ugc');
    await bronze.page.getByText('No replies yet.').waitFor();

    const gold = await memberAt('gold', 'Gary Gold');
    await gotoHydrated(gold.page, postUrl);
    await gold.page.getByLabel('Your reply').fill('Serve good coffee and send a follow-up the same evening.');
    await gold.page.getByRole('button', { name: 'Reply', exact: true }).click();
    const reply = gold.page.locator('li[data-reply-id]', { hasText: 'Serve good coffee' });
    await reply.waitFor();
    // Gold (and Silver) members carry their tier badge.
    expect(await reply.textContent()).toContain('Gary Gold');
    expect(await reply.textContent()).toContain('Gold');
    await gold.page.getByText('1 replies').waitFor();

    // The button shows the like at once; the page is read again only once the server has it.
    const likeSaved = gold.page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith(postUrl),
    );
    await gold.page.getByRole('button', { name: '♥ 0 likes, Like', exact: true }).click();
    await gold.page.getByRole('button', { name: '♥ 1 like, Like', exact: true }).waitFor();
    expect((await likeSaved).status()).toBeLessThan(400);
    await gotoHydrated(gold.page, postUrl);
    expect(await gold.page.getByRole('button', { name: '♥ 1 like, Like', exact: true }).getAttribute('aria-pressed')).toBe('true');

    // The author: their own discussion in Community Highlights, the reply beside it, and an email.
    await gotoHydrated(bronze.page, '/dashboard');
    const highlights = bronze.page.locator('section', { has: bronze.page.getByRole('heading', { name: 'Community Highlights' }) });
    await highlights.getByText('Your discussions').waitFor();
    expect(await highlights.getByRole('link', { name: title }).getAttribute('href')).toBe(postUrl);
    const replies = bronze.page.locator('section', { has: bronze.page.getByRole('heading', { name: 'Replies to your posts' }) });
    await replies.getByText('Gary Gold').waitFor();
    await replies.getByText('Serve good coffee and send a follow-up the same evening.').waitFor();
    await expect.poll(async () => (await mailTo(bronze.email)).map((mail) => mail.subject)).toContain(`Gary Gold replied to "${title}"`);
    const [mail] = (await mailTo(bronze.email)).filter((sent) => sent.subject?.startsWith('Gary Gold replied'));
    expect(mail!.text).toContain(postUrl);
    expect(mail!.headerLines.find((line) => line.key === 'list-unsubscribe')?.line).toContain('/api/email/unsubscribe?token=');
    expect([...pageProblems(bronze.page), ...pageProblems(gold.page)]).toEqual([]);
  });

  it('lets a free member read every discussion and invites them to upgrade to take part', async () => {
    const free = await memberAt('free', 'Fran Free');
    await gotoHydrated(free.page, '/community');
    await free.page
      .getByTestId('participation')
      .getByText('Upgrade to Bronze or above to post, reply and like in the community.')
      .waitFor();
    expect(await free.page.getByRole('heading', { name: 'Start a discussion' }).count()).toBe(0);
    expect(await free.page.getByText('Join to see full discussion').count()).toBe(0);
    const first = free.page.locator('article[data-post-id] h3 a').first();
    const href = await first.getAttribute('href');
    await first.click();
    await free.page.waitForURL((url) => url.pathname === href);
    await free.page.getByRole('heading', { name: 'Replies' }).waitFor();
    expect(await free.page.getByLabel('Your reply').count()).toBe(0);
  });
});

describe('moderation', () => {
  it('has a member report a discussion and staff hide it, which takes it away from members at once', async () => {
    const author = await memberAt('silver', 'Sam Silver');
    const title = `Buy my course elsewhere ${Date.now()}`;
    const created = await author.page.request.post('/api/community/posts', {
      data: { title, body: 'Cheap leads at a site that is not this one.', space: 'general' },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    const reader = await memberAt('bronze', 'Rita Reader');
    await gotoHydrated(reader.page, `/community/${id}`);
    await reader.page.locator('article').getByText('Report', { exact: true }).click();
    await reader.page.getByLabel('What is wrong?').fill('Advertising another site');
    await reader.page.getByRole('button', { name: 'Send report' }).click();
    await toast(reader.page, 'Thank you. Our team will look at it.');

    const staff = await browser.newPage();
    await signInAsStaff(staff);
    await gotoHydrated(staff, '/admin/dashboard/community');
    const report = staff.getByTestId('reports').locator('li', { hasText: title });
    await report.getByText('Reported by Rita Reader: Advertising another site').waitFor();
    await report.getByRole('button', { name: 'Hide', exact: true }).click();
    // Hiding deals with the report; the discussion stays listed for staff, hidden.
    await report.waitFor({ state: 'detached' });
    const row = staff.locator('tr', { hasText: title });
    await row.getByText('hidden', { exact: false }).waitFor();
    await row.getByRole('button', { name: 'Unhide', exact: true }).waitFor();

    // Gone for members: the page answers 404, the feed and the visitors' preview leave it out.
    const response = await reader.page.goto(`/community/${id}`);
    expect(response!.status()).toBe(404);
    await reader.page.getByRole('heading', { name: 'Discussion not found' }).waitFor();
    await gotoHydrated(reader.page, '/community');
    expect(await reader.page.getByText(title).count()).toBe(0);
    const preview = (await (await staff.request.get('/api/community/posts')).json()) as { title: string }[];
    expect(preview.some((post) => post.title === title)).toBe(false);

    // The activity log names the moderation.
    const activity = (await (await staff.request.get('/api/admin/activity')).json()) as { action: string; target: string }[];
    expect(activity.some((entry) => entry.action === 'community.post.hide' && entry.target === title)).toBe(true);
    expect(pageProblems(staff)).toEqual([]);
  });
});
