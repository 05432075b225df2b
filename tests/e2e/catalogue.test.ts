import { describe, expect, it } from 'vitest';
import { baseUrl, countedMembers, expectMemberCountIn, gotoHydrated, pageProblems, toast, useBrowser } from './browser.ts';

const browser = useBrowser();

describe('courses (/courses)', () => {
  it('filters by search, category and tier in the browser, with the counter and the empty text', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/courses');
    expect(await page.locator('h1').textContent()).toBe('Expert-Led Courses');
    const total = (await (await fetch(`${baseUrl()}/api/courses`)).json()).length as number;
    await page.getByText(`Showing ${total} course(s)`).waitFor();
    expect(await page.getByRole('link', { name: 'View Course' }).count()).toBe(total);

    await page.getByPlaceholder('Search courses...').fill('LISTING PRESENTATION');
    await page.getByText('Showing 1 course(s)').waitFor();
    await page.getByRole('heading', { name: 'Listing Presentation Mastery' }).waitFor();
    // Search also matches the description.
    await page.getByPlaceholder('Search courses...').fill('cap rates');
    await page.getByText('Showing 1 course(s)').waitFor();

    await page.getByPlaceholder('Search courses...').fill('');
    await page.locator('#category-filter').selectOption('negotiation');
    await page.locator('#tier-filter').selectOption('silver');
    await page.getByText('Showing 1 course(s)').waitFor();
    await page.getByRole('heading', { name: 'Advanced Negotiation Strategies' }).waitFor();
    await page.locator('#tier-filter').selectOption('free');
    await page.getByText('Showing 0 course(s)').waitFor();
    await page.getByText('No courses found matching your criteria').waitFor();

    await page.getByText('Want Access to ALL Courses?').waitFor();
    expect(await page.getByRole('link', { name: 'View Membership Plans' }).getAttribute('href')).toBe('/pricing');
    expect(pageProblems(page)).toEqual([]);
  });

  it('links each card to its course', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/courses');
    await page.getByPlaceholder('Search courses...').fill('Mortgage Basics');
    await page.getByRole('link', { name: 'View Course' }).click();
    await page.waitForURL('**/courses/mortgage-basics-for-agents');
    await page.getByRole('heading', { level: 1, name: 'Mortgage Basics Every Agent Should Know' }).waitFor();
  });
});

describe('course detail (/courses/{id})', () => {
  it('shows the course, Sign Up to Enroll with Log in for a visitor, and a one-open curriculum accordion', async () => {
    const page = await browser.newPage();
    const response = await gotoHydrated(page, '/courses/listing-presentation-mastery');
    expect(response?.status()).toBe(200);
    for (const text of ['Listing Presentation Mastery', 'Certificate included', '7 lessons', 'Instructor: Sarah Whitfield', 'Bronze']) {
      await page.getByText(text, { exact: false }).first().waitFor();
    }
    expect(await page.getByRole('link', { name: 'Sign Up to Enroll' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(await page.getByRole('button', { name: 'Start Learning' }).count()).toBe(0);

    const first = page.getByRole('button', { name: /The Pre-Listing Package/ });
    const third = page.getByRole('button', { name: /The Pricing Conversation/ });
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await page.getByText('What to send before the appointment').waitFor();
    await third.click();
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    expect(await third.getAttribute('aria-expanded')).toBe('true');
    await third.click();
    expect(await third.getAttribute('aria-expanded')).toBe('false');
    // A visitor never gets the video, so no Watch Lesson button anywhere.
    await first.click();
    expect(await page.getByRole('button', { name: 'Watch Lesson' }).count()).toBe(0);
  });

  it('answers an unknown course with 404, the Course not found toast and Browse Courses', async () => {
    const page = await browser.newPage();
    const response = await gotoHydrated(page, '/courses/no-such-course');
    expect(response?.status()).toBe(404);
    await page.locator('[data-sonner-toast]', { hasText: 'Course not found' }).waitFor();
    await page.getByRole('link', { name: 'Browse Courses' }).click();
    await page.waitForURL('**/courses');
  });
});

describe('podcast (/podcast)', () => {
  it('shows the brand header, badge, default labels, two Spotify players and the links', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/podcast');
    expect(await page.locator('h1').textContent()).toBe('RealtyPocket Coaching Podcast');
    for (const text of [
      'FREE • All Episodes Available to Everyone',
      'Latest Episodes',
      'Listen to our podcast episodes on Spotify',
      'Latest Episode',
      'Previous Episode',
    ]) {
      await page.getByText(text, { exact: true }).first().waitFor();
    }
    const episodes = (await (await fetch(`${baseUrl()}/api/podcast/episodes`)).json()) as { spotify_url: string }[];
    const frames = await page.locator('iframe').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('src')));
    const embedOf = (url: string) => url.replace('https://open.spotify.com/episode/', 'https://open.spotify.com/embed/episode/');
    expect(frames).toEqual([embedOf(episodes[0]!.spotify_url), embedOf(episodes[1]!.spotify_url)]);
    expect(await page.getByRole('link', { name: 'View All Episodes on Spotify' }).getAttribute('target')).toBe('_blank');
    expect(await page.getByRole('link', { name: 'Explore Courses' }).getAttribute('href')).toBe('/courses');
    expect(await page.getByRole('link', { name: 'View Pricing' }).getAttribute('href')).toBe('/pricing');
  });
});

describe('resources (/resources)', () => {
  it('shows type badges, lock notes, Download or View Details, and filters by type and search', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/resources');
    expect(await page.locator('h1').textContent()).toBe('Resources & Tools');
    const total = (await (await fetch(`${baseUrl()}/api/resources`)).json()).length as number;
    await page.getByText(`Showing ${total} resource(s)`).waitFor();
    await page.getByText('Gold membership required').first().waitFor();
    await page.getByText('Silver membership required').first().waitFor();
    // A visitor is entitled to no download, so every card offers View Details.
    expect(await page.getByRole('link', { name: 'Download', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'View Details' }).count()).toBe(total);

    await page.locator('#type-filter').selectOption('market_report');
    await page.getByText('Showing 2 resource(s)').waitFor();
    expect(await page.locator('article', { hasText: 'Market Report' }).count()).toBe(2);
    await page.getByPlaceholder('Search resources...').fill('no such resource anywhere');
    await page.getByText('No resources found').waitFor();
    await page.getByText('Want Access to Premium Resources?').waitFor();
  });

  it("opens a daily tip's whole text with View Details and copies it; the lock is an icon, not an emoji", async () => {
    const page = await browser.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await gotoHydrated(page, '/resources');
    expect(await page.locator('main').textContent()).not.toContain('🔒');
    const lock = page.locator('article', { hasText: 'Gold membership required' }).first().locator('svg');
    expect(await lock.getAttribute('aria-hidden')).toBe('true');

    await page.locator('#type-filter').selectOption('daily_tip');
    const tip = page.locator('article').first();
    const title = (await tip.getByRole('heading').textContent())!;
    const text = tip.locator('p').first();
    expect(await text.getAttribute('class')).toContain('line-clamp-3');
    await tip.getByRole('button', { name: 'View Details' }).click();
    expect(await text.getAttribute('class')).not.toContain('line-clamp-3');
    // The details add what to do with the tip rather than repeating it.
    expect(await tip.getByText((await text.textContent())!).count()).toBe(1);
    await tip.getByRole('button', { name: 'Copy tip' }).click();
    await toast(page, 'Tip copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${title}\n\n${await text.textContent()}`);
  });
});

describe('community (/community)', () => {
  it('shows the first two discussions and blurs the rest for a visitor, with the live count', async () => {
    const page = await browser.newPage();
    const membersBefore = await countedMembers();
    await gotoHydrated(page, '/community');
    expect(await page.locator('h1').textContent()).toBe('RealtyPocket Community');
    await page.getByText('Join our membership to participate').waitFor();
    const posts = (await (await fetch(`${baseUrl()}/api/community/posts`)).json()) as { title: string; content: string | null }[];
    expect(await page.getByTestId('discussion-count').textContent()).toBe(`${posts.length} Discussions`);
    for (const text of ['50+ Daily Posts', 'Recent Discussions']) {
      await page.getByText(text).first().waitFor();
    }
    const membersAfter = await countedMembers();
    // The real member count, and none at all rather than '0+'.
    if (membersAfter > 0)
      expectMemberCountIn(await page.locator('main').textContent(), /(\d+)\+ Active Members/, {
        before: membersBefore,
        after: membersAfter,
      });
    else expect(await page.getByText('Active Members').count()).toBe(0);
    expect(await page.locator('article[data-locked="false"]').count()).toBe(2);
    expect(await page.locator('article[data-locked="true"]').count()).toBe(posts.length - 2);
    expect(await page.getByText('Join to see full discussion').count()).toBe(posts.length - 2);
    // The hidden posts' text is not sent at all.
    const hidden = posts.slice(2);
    expect(hidden.every((post) => post.content === null)).toBe(true);
    // Shown as text: a member's markup reaches the page escaped, never as markup.
    expect(await page.locator('article[data-locked="false"]').first().textContent()).toContain(posts[0]!.content!);
    expect(await page.getByRole('link', { name: 'Create Free Account' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('link', { name: 'View Membership Plans' }).first().getAttribute('href')).toBe('/pricing');
  });
});
