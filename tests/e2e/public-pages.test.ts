import { describe, expect, it } from 'vitest';
import { baseUrl, countedMembers, expectMemberCountIn, gotoHydrated, pageProblems, signInAsNewMember, useBrowser } from './browser.ts';

const browser = useBrowser();
const hrefOf = async (page: import('playwright-core').Page, name: string) =>
  page.getByRole('link', { name, exact: true }).first().getAttribute('href');

describe('home (/)', () => {
  it('shows the hero defaults, trust line, live stats and every spec link with its target', async () => {
    // At least one member, so there is a count to show (none is shown as '0+').
    await signInAsNewMember(await browser.newPage(), 'Counted Member');
    const page = await browser.newPage();
    const membersBefore = await countedMembers();
    await gotoHydrated(page, '/');
    expect(await page.locator('h1').textContent()).toBe('Transform Your Real Estate Career From Your Pocket');
    const stats = (await (await fetch(`${baseUrl()}/api/admin/analytics/content`)).json()) as {
      total_users: number;
      total_courses: number;
    };
    // Until staff write their own numbers, the real counts (one value per fact on every page).
    for (const text of [
      'Expert-led courses, coaching, and community designed for ambitious real estate professionals',
      '★ 4.9 App Rating',
    ]) {
      await page.getByText(text, { exact: true }).waitFor();
    }
    const counted = { before: membersBefore, after: stats.total_users };
    const trusted = expectMemberCountIn(await page.locator('main').textContent(), /Trusted by (\d+)\+ Real Estate Professionals/, counted);
    expect(await page.getByTestId('stat-members').textContent()).toBe(`${trusted}+ Active Members`);
    expect(await page.getByTestId('stat-courses').textContent()).toBe(`${stats.total_courses}+ Courses`);

    expect(await hrefOf(page, 'Download Now & Start Learning')).toBe('/signup');
    expect(await hrefOf(page, 'Start Your Transformation Today')).toBe('/signup');
    expect(await hrefOf(page, 'Get Started Today Today')).toBe('/signup');
    expect(await hrefOf(page, 'Browse Courses')).toBe('/courses');
    expect(await hrefOf(page, 'Explore Courses')).toBe('/courses');
    expect(await hrefOf(page, 'View All Episodes')).toBe('/podcast');
    expect(await hrefOf(page, 'Compare all plans and features')).toBe('/pricing');
    for (const plan of ['Start Bronze', 'Start Silver', 'Start Gold']) expect(await hrefOf(page, plan), plan).toBe('/pricing');

    // Sections in the spec's order.
    const headings = await page.locator('main h2').allTextContents();
    const order = [
      'Real Agents, Real Results',
      'Stop Guessing. Start Growing.',
      'Everything You Need to Succeed',
      'Latest Podcast Episodes',
      'Simple, Transparent Pricing',
      'Frequently Asked Questions',
      'Ready to Transform Your Career?',
    ];
    expect(headings.filter((heading) => order.includes(heading))).toEqual(order);
    expect(await page.locator('main figure').count()).toBe(3);
    expect(await page.getByTestId('latest-episodes').locator('article').count()).toBe(3);
    expect(await page.locator('main h3', { hasText: 'Video Courses' }).count()).toBe(1);
    expect(pageProblems(page)).toEqual([]);
  });

  it('opens one FAQ at a time and closes the open one on a second click', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/');
    const faq = page.locator('#faq');
    const buttons = faq.getByRole('button');
    expect(await buttons.count()).toBe(8);
    await buttons.nth(0).click();
    expect(await buttons.nth(0).getAttribute('aria-expanded')).toBe('true');
    await buttons.nth(3).click();
    expect(await buttons.nth(0).getAttribute('aria-expanded')).toBe('false');
    expect(await buttons.nth(3).getAttribute('aria-expanded')).toBe('true');
    await faq.getByText('Finish every lesson of a course').waitFor();
    await buttons.nth(3).click();
    expect(await faq.locator('[aria-expanded="true"]').count()).toBe(0);
  });

  it('shows a grey box when a podcast image fails to load', async () => {
    const page = await browser.newPage();
    await page.route('**/images/podcast/**', (route) => route.fulfill({ status: 404, body: '' }));
    await gotoHydrated(page, '/');
    await page.getByTestId('image-placeholder').first().waitFor();
    expect(await page.getByTestId('image-placeholder').count()).toBe(3);
  });
});

describe('pricing (/pricing)', () => {
  it('defaults to monthly, switches to yearly prices with the saving, and links every plan to /signup', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/pricing');
    // A visitor's plain page holds both periods' cards, one shown (decision 027).
    const price = (tier: string) => page.getByTestId(`price-${tier}`).filter({ visible: true });
    await page.getByText('Save 16%').waitFor();
    expect(await page.getByRole('button', { name: 'Monthly' }).getAttribute('aria-pressed')).toBe('true');
    expect(await price('bronze').textContent()).toBe('$29');
    expect(await price('silver').textContent()).toBe('$79');
    expect(await price('gold').textContent()).toBe('$149');
    await page.locator('[data-plan="silver"]').filter({ visible: true }).getByText('Most Popular').waitFor();
    await page.getByRole('button', { name: 'Yearly' }).click();
    expect(await price('bronze').textContent()).toBe('$290');
    expect(await price('silver').textContent()).toBe('$790');
    expect(await price('gold').textContent()).toBe('$1,490');
    await page.getByText('Save $298 a year').filter({ visible: true }).waitFor();
    // A visitor signs up first, then goes on to pay for the plan and period chosen.
    for (const tier of ['bronze', 'silver', 'gold']) {
      const button = `Start ${tier[0]!.toUpperCase()}${tier.slice(1)}`;
      expect(await hrefOf(page, button), button).toBe(`/signup?plan=${tier}&period=yearly`);
    }
    await page.getByRole('heading', { name: '30-Day Money-Back Guarantee', exact: true }).waitFor();
    const table = page.locator('table');
    expect(await table.locator('tr', { hasText: 'Courses' }).textContent()).toContain('Bronze only');
    expect(await table.locator('tr', { hasText: '1-on-1 coaching' }).textContent()).toContain('Monthly');
  });
});

describe('contact (/contact)', () => {
  it('sends a message, confirms it and clears the form; shows the error alert when sending fails', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/contact');
    await page.getByText("Have questions? We're here to help you succeed.").waitFor();
    for (const text of ['support@realtypocket.com', '(512) 555-0142', 'Monday - Friday, 9am - 5pm CST', 'Need Immediate Help?']) {
      await page.getByText(text).first().waitFor();
    }
    const fill = async () => {
      await page.getByLabel('Your Name').fill('Taylor Agent');
      await page.getByLabel('Email Address').fill('taylor@example.com');
      await page.getByLabel('Subject').fill('Coaching question');
      await page.getByLabel('Message').fill('Do Silver members get recordings of the weekly coaching calls?');
    };
    await fill();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('status').getByText("Thank you for your message! We'll get back to you soon.").waitFor();
    expect(alerts).toEqual(["Thank you for your message! We'll get back to you soon."]);
    expect(await page.getByLabel('Your Name').inputValue()).toBe('');
    expect(await page.getByLabel('Message').inputValue()).toBe('');

    // The form posts to the page's own action; its data request fails on the way.
    await page.route('**/contact.data*', (route) => route.abort('connectionfailed'));
    await fill();
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => alerts.length).toBe(2);
    expect(alerts[1]).toBe('There was an error sending your message. Please try again or email us directly at support@realtypocket.com');
    expect(await page.getByLabel('Your Name').inputValue()).toBe('Taylor Agent');
  });
});

describe('company pages', () => {
  it('shows the about page sections and buttons', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/about');
    for (const heading of ['Our Mission', 'Who We Serve', 'Our Core Values', 'Our Track Record', 'Excellence', 'Community', 'Growth']) {
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    expect(await page.locator('main').getByRole('link', { name: 'Get Started Today' }).getAttribute('href')).toBe('/signup');
    expect(await page.locator('main').getByRole('link', { name: 'View Pricing' }).getAttribute('href')).toBe('/pricing');
  });

  it('shows the privacy policy and the terms with their sections, date and Back to Home', async () => {
    const page = await browser.newPage();
    await gotoHydrated(page, '/privacy-policy');
    await page.getByText('Last updated October 13, 2025').waitFor();
    expect(await page.locator('article h2').count()).toBe(10);
    await page.getByText(/we keep your account data for 90 days/).waitFor();
    await gotoHydrated(page, '/terms-of-service');
    expect(await page.locator('article h2').count()).toBe(11);
    await page.getByText(/at least 18 years old/).waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});
