import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gotoHydrated, openTheCoachesWeek, signInAsStaff, signInAtTier, useBrowser } from './browser.ts';
import { PUBLIC_PAGES } from './routes.ts';

// Issue 26, item 8: on a phone (360 px), every button and link of the coaching pages, the goals page
// and the dashboard's new panels, and the dashboard's 'Upgrade Plan', is at least 44 px tall.
// WCAG 2.1 AA for everyone (DESIGN.md): so is every link and button of the header, its phone menu,
// the footer, and every page of members and staff. A link inside a sentence is exempt (WCAG 2.5.5's
// inline exception): it is as tall as the line it sits in.

const browser = useBrowser();
const TAP_TARGET_PX = 44;
const TAPPABLE = 'a, button, select, summary';
/** The dashboard's panels of the coaching product; its older panels are not part of the promise. */
const DASHBOARD_PANELS = ['Live Coaching', 'Tip of the Day', 'Your Goals', 'Recommended for you'];

type Measured = { text: string; height: number };

/**
 * The height of every visible link, button, drop-down and disclosure inside `scope` (all of `main` by
 * default), but for links that run inline within a sentence: text stands right before or after them.
 * A link stretched over its card (an ::after laid over the card) is as tall as the card it covers.
 */
async function measure(page: Page, scope = 'main'): Promise<Measured[]> {
  return page.locator(scope).evaluateAll(
    (roots, selector) =>
      roots.flatMap((root) =>
        [...root.querySelectorAll<HTMLElement>(selector)]
          .filter((element) => {
            const box = element.getBoundingClientRect();
            const style = getComputedStyle(element);
            return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
          })
          .filter((element) => {
            const isInline = (node: Element) => getComputedStyle(node).display === 'inline';
            const nextTo = (direction: 'previousSibling' | 'nextSibling') => {
              let node = element[direction];
              // Past blank text and the comments React leaves between two texts.
              while (node && (node.nodeType === Node.COMMENT_NODE || (node.nodeType === Node.TEXT_NODE && !node.textContent?.trim()))) {
                node = node[direction];
              }
              return node?.nodeType === Node.TEXT_NODE || (node instanceof HTMLElement && isInline(node) && node.innerText.trim() !== '');
            };
            return !(element.tagName === 'A' && isInline(element) && (nextTo('previousSibling') || nextTo('nextSibling')));
          })
          .map((element) => {
            const stretched = getComputedStyle(element, '::after').position === 'absolute' && element.offsetParent;
            return {
              text: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.innerText).replace(/\s+/g, ' ').trim().slice(0, 60)}"`,
              height: Math.round((stretched || element).getBoundingClientRect().height * 10) / 10,
            };
          }),
      ),
    TAPPABLE,
  );
}

/** The dashboard's new panels, and its 'Upgrade Plan'. */
async function measureDashboard(page: Page): Promise<Measured[]> {
  const panels = DASHBOARD_PANELS.map((title) => `main section:has(> div > h2:text-is("${title}"))`).join(', ');
  expect(await page.locator(panels).count()).toBeGreaterThanOrEqual(2);
  const upgrade = page.getByRole('link', { name: 'Upgrade Plan' });
  const box = await upgrade.boundingBox();
  return [...(await measure(page, panels)), { text: 'a "Upgrade Plan"', height: Math.round(box!.height * 10) / 10 }];
}

/** Staff schedule a weekly series (about 13 sessions, the first one `daysAhead` from now). */
async function scheduleWeekly(title: string, minTier: 'silver' | 'gold', daysAhead: number): Promise<string> {
  const staff = await browser.newPage();
  await signInAsStaff(staff);
  const [host] = (await (await staff.request.get('/api/admin/coaching/hosts')).json()) as { id: string }[];
  const start = new Date(Date.now() + daysAhead * 24 * 3600_000);
  const answer = await staff.request.post('/api/admin/coaching/series', {
    data: {
      title,
      description: 'Pipeline reviews, scripts and objections.',
      host_staff_id: host!.id,
      date: start.toISOString().slice(0, 10),
      time: '17:00',
      time_zone: 'America/New_York',
      duration_minutes: 45,
      min_tier: minTier,
      capacity: 30,
      weekly: true,
      join_url: 'https://meet.example.com/tap-targets',
    },
  });
  expect(answer.status()).toBe(201);
  await staff.close();
  return ((await answer.json()) as { id: string }).id;
}

describe('tap targets on a phone', () => {
  it('makes every link, button and drop-down of the coaching pages, the goals page and the dashboard panels at least 44 px tall', async () => {
    const found: Record<string, Measured[]> = {};

    // A Free member: the dashboard's 'Upgrade Plan', first without goals, then with one; and /goals.
    const { page: free } = await signInAtTier(browser, 'free', 'Tia Taps', { mobile: true });
    await gotoHydrated(free, '/dashboard');
    await free.getByRole('link', { name: 'Upgrade Plan' }).waitFor();
    found['/dashboard (no goals)'] = await measureDashboard(free);
    const goal = await free.request.post('/api/goals', {
      data: { kind: 'count', title: 'Calls to past clients', target: 20, unit: 'calls', period: 'week', reminder: 'weekly' },
    });
    expect(goal.status()).toBe(201);
    await gotoHydrated(free, '/dashboard');
    await free.getByTestId('goal').filter({ hasText: 'Calls to past clients' }).waitFor();
    found['/dashboard (a goal)'] = await measureDashboard(free);
    await gotoHydrated(free, '/goals');
    await free.getByTestId('goal').filter({ hasText: 'Calls to past clients' }).waitFor();
    found['/goals'] = await measure(free);

    // A Silver member: more sessions than a page (the pager), Gold ones locked ('See the plans'), one RSVP'd.
    const stamp = Date.now();
    await scheduleWeekly(`Gold mastermind ${stamp}`, 'gold', 1);
    const silverSession = await scheduleWeekly(`Silver pipeline hour ${stamp}`, 'silver', 1);
    const { page: silver } = await signInAtTier(browser, 'silver', 'Sol Taps', { mobile: true });
    expect((await silver.request.post(`/api/coaching/sessions/${silverSession}/rsvp`)).status()).toBe(201);
    await gotoHydrated(silver, '/coaching');
    await silver.getByText("✓ You RSVP'd").first().waitFor();
    await silver.getByRole('link', { name: 'See the plans' }).waitFor();
    await silver.getByRole('link', { name: 'Later sessions →' }).waitFor();
    found['/coaching'] = await measure(silver);
    await silver.getByRole('link', { name: 'Later sessions →' }).click();
    await silver.getByRole('link', { name: '← First page' }).waitFor();
    found['/coaching (page 2)'] = await measure(silver);
    await gotoHydrated(silver, '/coaching?tab=recordings');
    found['/coaching?tab=recordings'] = await measure(silver);
    await gotoHydrated(silver, '/coaching/one-on-one');
    await silver.getByRole('link', { name: 'Upgrade to Gold' }).waitFor();
    found['/coaching/one-on-one (Silver)'] = await measure(silver);

    // A Gold member with a 1-on-1 booked (the last free time of the fortnight, away from one-on-one.test.ts's first).
    await openTheCoachesWeek(browser);
    const { page: gold } = await signInAtTier(browser, 'gold', 'Gwen Taps', { mobile: true });
    const [coach] = (await (await gold.request.get('/api/one-on-one/coaches')).json()) as { id: string }[];
    const slots = (await (await gold.request.get(`/api/one-on-one/slots?coach=${coach!.id}`)).json()) as {
      days: { starts: string[] }[];
    };
    const lastFree = slots.days.flatMap((day) => day.starts).at(-1)!;
    const booked = await gold.request.post('/api/one-on-one/bookings', {
      data: { coach_id: coach!.id, starts_at: lastFree, topic: 'Pricing my listings' },
    });
    expect(booked.status()).toBe(201);
    await gotoHydrated(gold, '/coaching/one-on-one');
    await gold.getByTestId('booking').waitFor();
    found['/coaching/one-on-one (Gold)'] = await measure(gold);

    expectAllTallEnough(found);
  });

  it('makes every link and button of the header, its phone menu, the footer and the pages of members and staff at least 44 px tall', async () => {
    const found: Record<string, Measured[]> = {};

    // A visitor: the header (logo, 'Open menu', 'Login'), the open menu, and the footer (its links, the store badges).
    const visitor = await browser.newPage({ mobile: true });
    await gotoHydrated(visitor, '/');
    found['/ header and footer (visitor)'] = await measure(visitor, 'header, footer');
    const measuredNames = found['/ header and footer (visitor)'].map((each) => each.text);
    for (const named of [
      'a "R RealtyPocket"',
      'button "Open menu"',
      'a "Privacy Policy"',
      'button "Download on iOS"',
      'button "Get it on Android"',
    ]) {
      expect(measuredNames).toContain(named);
    }
    await visitor.getByRole('button', { name: 'Open menu' }).click();
    found['/ phone menu (visitor)'] = await measure(visitor, '#mobile-menu');
    for (const path of PUBLIC_PAGES) {
      await gotoHydrated(visitor, path);
      found[`${path} (visitor)`] = await measure(visitor, 'body');
    }

    // Members of the lowest and the highest tier (upgrade offers for one, bookings and the Gold Lounge for
    // the other): the header's signed-in actions in the open menu, and every page of theirs, whole.
    for (const tier of ['free', 'gold'] as const) {
      const { page: member } = await signInAtTier(browser, tier, `${tier} taps`, { mobile: true });
      // Enrolled in a course: 'Continue Learning' on the dashboard, and its list, have something to tap.
      expect((await member.request.post('/api/courses/first-90-days/enrol')).ok()).toBe(true);
      await gotoHydrated(member, '/dashboard');
      await member.getByRole('button', { name: 'Open menu' }).click();
      found[`phone menu (${tier})`] = await measure(member, '#mobile-menu');
      for (const path of MEMBER_PAGES) {
        await gotoHydrated(member, path);
        found[`${path} (${tier})`] = await measure(member, 'body');
      }
    }

    // The owner: every admin tab.
    const owner = await browser.newPage({ mobile: true });
    await signInAsStaff(owner);
    await gotoHydrated(owner, '/admin/dashboard');
    const tabs = await owner
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    const [someone] = (await (await owner.request.get('/api/admin/members')).json()) as { id: string }[];
    for (const path of [
      ...tabs,
      '/admin/dashboard/courses/first-90-days',
      '/admin/dashboard/coaching/one-on-one',
      `/admin/dashboard/members/${someone!.id}`,
    ]) {
      await gotoHydrated(owner, path);
      found[`${path} (owner)`] = await measure(owner, 'body');
    }
    expectAllTallEnough(found);
  }, 180_000);
});

/** The pages a member opens from the header, the dashboard and the menus (beside the public ones). */
const MEMBER_PAGES = [
  '/dashboard /dashboard/courses /dashboard/certificates /dashboard/replies /account /account/billing /notifications',
  '/notifications/settings /goals /coaching /coaching/one-on-one /community /community/post-first-closing /courses',
  '/courses/first-90-days /resources /pricing /broadcasts /team /team/new',
].flatMap((line) => line.split(' '));

/** Fails with every link and button under 44 px, page by page; says how many it measured. */
function expectAllTallEnough(found: Record<string, Measured[]>) {
  const tooSmall = Object.entries(found).flatMap(([page, measured]) =>
    measured.filter((each) => each.height < TAP_TARGET_PX).map((each) => `${page}: ${each.text} is ${each.height} px tall`),
  );
  console.info(
    Object.entries(found)
      .map(([page, measured]) => `${page}: ${measured.length} measured, smallest ${Math.min(...measured.map((each) => each.height))} px`)
      .join('\n'),
  );
  expect(tooSmall).toEqual([]);
}
