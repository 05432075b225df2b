import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Tier } from '../../common/tiers.ts';
import {
  courseWithQuizLesson,
  gotoHydrated,
  mailTo,
  newEmail,
  signInAsStaff,
  signInAtTier,
  useBrowser,
  writeQuizAndPublish,
} from './browser.ts';
import { PUBLIC_PAGES } from './routes.ts';

// WCAG 2.1 AA for everyone (DESIGN.md): axe-core finds nothing, at any impact, on any page a visitor,
// a member of each tier, an editor or an owner can open; the keyboard reaches every link and button
// and shows where it is; the phone menu closes with Escape. (Tap targets: tap-targets.test.ts.)

const browser = useBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** A course each tier can open. */
const COURSE_OF_TIER: Record<Tier, string> = {
  free: 'first-90-days',
  bronze: 'listing-presentation-mastery',
  silver: 'negotiation-strategies',
  gold: 'luxury-market',
};

/** What only a visitor opens, besides the public pages of the route table: a locked course, the forms without a token, errors. */
const VISITOR_PAGES = [
  '/courses/luxury-market',
  '/community/post-first-closing',
  '/forgot-password',
  '/reset-password',
  '/verify-email',
  '/unsubscribe',
  '/team/join',
  '/certificates/NOT-A-CODE',
  '/no-such-page',
  '/admin/login',
  '/admin/forgot-password',
  '/admin/reset-password',
];

/** A member's pages whose content their tier changes (locks, upgrade offers, what they may do): audited for every tier. */
const TIER_PAGES = [
  '/dashboard',
  '/account',
  '/account/billing',
  '/coaching',
  '/coaching?tab=recordings',
  '/coaching/one-on-one',
  '/community',
  '/community?space=gold',
  '/community/post-first-closing',
  '/courses',
  '/courses/luxury-market',
  '/resources',
  '/pricing',
  '/broadcasts',
  '/team',
];

/** A member's pages that are the same whatever their tier: audited once, for the Gold member (who has the most in them). */
const MEMBER_PAGES = [
  '/dashboard/courses',
  '/dashboard/certificates',
  '/dashboard/replies',
  '/notifications',
  '/notifications/settings',
  '/goals',
  '/licence',
  '/podcast/episodes/ep-s2e04',
  '/team/new',
];

type AxeViolation = { id: string; impact: string | null; nodes: { target: unknown[] }[] };

/**
 * A page (a browser context of its own) that loads axe-core into every document it opens, before the
 * site's scripts: the same script each time, not sent again per page as `addScriptTag` would.
 */
async function auditingPage(options: { mobile?: boolean } = {}): Promise<Page> {
  const page = await browser.newPage(options);
  await page.context().addInitScript({ path: axePath });
  return page;
}

/** Opens a page and waits until React has hydrated it (not for every image: axe-core reads the markup). */
async function openHydrated(page: Page, path: string) {
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** axe-core's violations of any impact on the page as it is now, one line each: rule, impact, element, page. */
async function axeViolations(page: Page, where: string): Promise<string[]> {
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    // Not inside other sites' embeds (a podcast's Spotify player): they are not ours to mend, and here,
    // with no way out to the internet, they never load, so axe would wait on a frame that cannot answer.
    const result = await axe.run(document, { resultTypes: ['violations'], iframes: false });
    return result.violations.map(({ id, impact, nodes }) => ({ id, impact, targets: nodes.map((node) => JSON.stringify(node.target)) }));
  });
  return violations.flatMap(({ id, impact, targets }) => targets.map((target) => `${id} (${impact}) at ${target} on ${where}`));
}

/** Opens each page in turn on the one page (one browser context per viewer) and gathers axe-core's findings. */
async function auditPages(page: Page, paths: readonly string[], viewer: string): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    await openHydrated(page, path);
    found.push(...(await axeViolations(page, `${path} [${viewer}]`)));
  }
  return found;
}

/** Enrols in a course, opens its lesson player ('Continue') and audits the page with the player open. */
async function auditLesson(page: Page, courseId: string, viewer: string): Promise<string[]> {
  expect((await page.request.post(`/api/courses/${courseId}/enrol`)).ok()).toBe(true);
  await openHydrated(page, `/courses/${courseId}`);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('dialog').waitFor();
  return axeViolations(page, `/courses/${courseId} lesson player [${viewer}]`);
}

/** The phone menu, open, on a 360 px page. */
async function auditPhoneMenu(page: Page, viewer: string): Promise<string[]> {
  await openHydrated(page, '/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('#mobile-menu').waitFor();
  return axeViolations(page, `/ phone menu [${viewer}]`);
}

/** A new member of this tier, signed in on a page that takes axe-core (their session cookie carried over). */
async function memberTakingAxe(tier: Tier, options: { mobile?: boolean } = {}): Promise<Page> {
  const { page: signedIn } = await signInAtTier(browser, tier, `${tier[0]!.toUpperCase()}${tier.slice(1)} Auditor`);
  const page = await auditingPage(options);
  await page.context().addCookies(await signedIn.context().cookies());
  await signedIn.context().close();
  return page;
}

/**
 * The member's own discussion, which another member replies to and likes: the member then has a
 * notification, a reply on /dashboard/replies and a discussion of their own to edit. Its address.
 */
async function ownDiscussionWithAReply(member: Page): Promise<string> {
  const posted = await member.request.post('/api/community/posts', {
    data: { title: 'Listing photos on a budget', body: 'Phone or pro photographer?' },
  });
  expect(posted.status()).toBe(201);
  const { id } = (await posted.json()) as { id: string };
  const { page: other } = await signInAtTier(browser, 'gold', 'Gina Replier');
  const replied = await other.request.post(`/api/community/posts/${id}/replies`, { data: { body: 'A pro, for listings over $500k.' } });
  expect(replied.status(), await replied.text()).toBe(201);
  const liked = await other.request.put(`/api/community/posts/${id}/like`);
  expect(liked.status(), await liked.text()).toBe(200);
  await other.context().close();
  return `/community/${id}`;
}

/** A new editor: invited by the owner, their password set with the invitation's token, signed in on a page that takes axe-core. */
async function signInAsEditor(owner: Page): Promise<Page> {
  const email = newEmail('editor');
  expect((await owner.request.post('/api/admin/staff', { data: { email, role: 'editor' } })).status()).toBe(201);
  let token: string | undefined;
  await expect
    .poll(async () => {
      token = (await mailTo(email)).map((mail) => /\/admin\/reset-password\?token=([\w-]+)/.exec(mail.text ?? '')?.[1]).find(Boolean);
      return token;
    })
    .toBeTruthy();
  const editor = await auditingPage();
  const password = 'editor-password-1';
  expect((await editor.request.post('/api/admin/password-reset/confirm', { data: { token, password } })).ok()).toBe(true);
  expect((await editor.request.post('/api/admin/login', { data: { email, password } })).ok()).toBe(true);
  return editor;
}

/** The admin tabs this staff member's navigation offers (an editor's are fewer than an owner's). */
async function adminTabs(page: Page): Promise<string[]> {
  await openHydrated(page, '/admin/dashboard');
  const tabs = await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  expect(tabs.length).toBeGreaterThan(3);
  return tabs;
}

const expectNone = (found: string[]) => expect(found, `axe-core found:\n${found.join('\n')}`).toEqual([]);

// Each viewer has a browser context of their own and visits their pages in turn.
describe('axe-core finds nothing, at any impact', () => {
  it('on the pages a visitor opens, on a laptop, and in the phone menu', async () => {
    const page = await auditingPage();
    const found = await auditPages(page, [...PUBLIC_PAGES, ...VISITOR_PAGES], 'visitor');
    await page.context().close();
    const phone = await auditingPage({ mobile: true });
    found.push(...(await auditPhoneMenu(phone, 'visitor, phone')));
    await phone.context().close();
    expectNone(found);
  }, 150_000);

  for (const tier of ['free', 'bronze', 'silver', 'gold'] as const) {
    it(`on the pages a ${tier} member opens, a lesson in the player included`, async () => {
      const member = await memberTakingAxe(tier);
      const goal = await member.request.post('/api/goals', {
        data: { kind: 'count', title: 'Calls to past clients', target: 20, unit: 'calls', period: 'week', reminder: 'weekly' },
      });
      expect(goal.status()).toBe(201);
      // A licence, so the dashboard has its card and /licence its ledger (the Gold member's).
      const licence = await member.request.post('/api/licence/licences', {
        data: { state: 'TX', licence_type: 'salesperson', licence_number: 'SP-1', renews_on: '2030-06-30' },
      });
      expect(licence.status()).toBe(201);
      // The Gold member also has their own discussion, with a reply and a like (notifications, replies, edit forms).
      const alsoGold = tier === 'gold' ? [...MEMBER_PAGES, await ownDiscussionWithAReply(member)] : [];
      const found = await auditPages(member, [...TIER_PAGES, ...alsoGold], `${tier} member`);
      found.push(...(await auditLesson(member, COURSE_OF_TIER[tier], `${tier} member`)));
      await member.context().close();
      expectNone(found);
    }, 150_000);
  }

  it('on the pages a member opens on a phone, the menu open', async () => {
    const member = await memberTakingAxe('silver', { mobile: true });
    const found = await auditPages(member, ['/dashboard', '/community', '/coaching'], 'silver member, phone');
    found.push(...(await auditPhoneMenu(member, 'silver member, phone')));
    await member.context().close();
    expectNone(found);
  }, 150_000);

  it('on the admin pages an owner opens, and on the site in edit mode', async () => {
    const owner = await auditingPage();
    await signInAsStaff(owner);
    const [member] = (await (await owner.request.get('/api/admin/members')).json()) as { id: string }[];
    const inside = [
      '/admin/dashboard/courses/first-90-days',
      '/admin/dashboard/courses/ce-requirements',
      '/admin/dashboard/coaching/one-on-one',
      `/admin/dashboard/members/${member!.id}`,
    ];
    const found = await auditPages(owner, ['/admin/dashboard', ...(await adminTabs(owner)), ...inside], 'owner');
    await openHydrated(owner, '/');
    await owner.evaluate(() => sessionStorage.setItem('edit-mode', 'on'));
    found.push(...(await auditPages(owner, ['/', '/courses', '/pricing', '/contact'], 'owner, edit mode')));
    await owner.context().close();
    expectNone(found);
  }, 150_000);

  it("on a quiz: the staff's editor and its results, and a member's try and its result, on a phone", async () => {
    const owner = await auditingPage();
    await signInAsStaff(owner);
    const { courseId, lessonId } = await courseWithQuizLesson(owner);
    await writeQuizAndPublish(owner, courseId, lessonId);
    const found = await auditPages(owner, [`/admin/dashboard/courses/${courseId}/quiz/${lessonId}`], 'owner');
    await owner.context().close();

    const member = await memberTakingAxe('free', { mobile: true });
    await openHydrated(member, `/courses/${courseId}`);
    await member.getByRole('button', { name: 'Check your contracts knowledge' }).click();
    await member.getByRole('button', { name: 'Take the quiz' }).click();
    const player = member.getByRole('dialog');
    await player.getByRole('button', { name: 'Start the quiz' }).click();
    await player.getByRole('radio', { name: 'Wrong' }).check();
    found.push(...(await axeViolations(member, 'a quiz try [free member, phone]')));
    await player.getByRole('button', { name: 'Send my answers' }).click();
    await player.getByText('You scored 0%. The pass mark is 100%.').waitFor();
    found.push(...(await axeViolations(member, 'a quiz result [free member, phone]')));
    await member.context().close();
    expectNone(found);
  }, 150_000);

  it('on the admin pages an editor opens', async () => {
    const owner = await browser.newPage();
    await signInAsStaff(owner);
    const editor = await signInAsEditor(owner);
    await owner.context().close();
    const found = await auditPages(
      editor,
      [...(await adminTabs(editor)), '/admin/dashboard/courses/first-90-days', '/admin/dashboard/courses/ce-requirements'],
      'editor',
    );
    await editor.context().close();
    expectNone(found);
  }, 150_000);
});

/** A control the keyboard should reach: its name for the report, and how it looks unfocused. */
type Control = { element: Element; name: string; unfocused: string | null };
type WithControls = { controls: Control[] };

describe('the keyboard', () => {
  it("opens the phone menu with Enter, closes it with Escape and is back on 'Open menu'", async () => {
    const page = await browser.newPage({ mobile: true });
    await gotoHydrated(page, '/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    const isFocused = () => toggle.evaluate((element) => element === document.activeElement);
    for (let presses = 0; presses < 5 && !(await isFocused()); presses++) await page.keyboard.press('Tab');
    expect(await isFocused()).toBe(true);

    await page.keyboard.press('Enter');
    const menu = page.locator('#mobile-menu');
    await menu.waitFor();
    const close = page.getByRole('button', { name: 'Close menu' });
    expect(await close.getAttribute('aria-expanded')).toBe('true');
    // The menu's links come next in the tab order.
    await page.keyboard.press('Tab');
    expect(await menu.getByRole('link', { name: 'Courses', exact: true }).evaluate((element) => element === document.activeElement)).toBe(
      true,
    );

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await isFocused()).toBe(true);
    await page.context().close();
  });

  it('reaches every link, button and field with Tab, and shows a focus ring on each', async () => {
    const visitor = await browser.newPage();
    const { page: member } = await signInAtTier(browser, 'bronze', 'Kim Keyboard');
    const owner = await browser.newPage();
    await signInAsStaff(owner);
    const problems: string[] = [];
    for (const [page, path] of [
      [visitor, '/'],
      [visitor, '/login'],
      [member, '/dashboard'],
      [member, '/community'],
      [member, '/goals'],
      [owner, '/admin/dashboard/members'],
    ] as const) {
      await gotoHydrated(page, path);
      problems.push(...(await tabThrough(page)).map((problem) => `${path}: ${problem}`));
    }
    expect(problems).toEqual([]);
  }, 90_000);
});

/**
 * Presses Tab from the top of the page to its end. Each control it lands on must look different from
 * how it looked unfocused (an outline or a shadow), and every visible control must be landed on.
 */
async function tabThrough(page: Page): Promise<string[]> {
  const count = await page.evaluate(() => {
    const selector =
      'a[href], button:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, input:not([type="hidden"]):not([type="radio"]):not([disabled])';
    (document.activeElement as HTMLElement | null)?.blur();
    const controls = [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
      })
      .map((element) => {
        const style = getComputedStyle(element);
        const label = element.getAttribute('aria-label') ?? element.innerText ?? element.getAttribute('name') ?? '';
        return {
          element,
          name: `${element.tagName.toLowerCase()} "${label.replace(/\s+/g, ' ').trim().slice(0, 50)}"`,
          unfocused: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow}`,
        };
      });
    (window as unknown as WithControls).controls = controls;
    return controls.length;
  });
  expect(count).toBeGreaterThan(3);

  const problems: string[] = [];
  const reached = new Set<number>();
  let previous = -1;
  for (let presses = 0; presses < 250; presses++) {
    await page.keyboard.press('Tab');
    const landed = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      const { controls } = window as unknown as WithControls;
      let index = controls.findIndex((control) => control.element === element);
      // Something focusable that is not a control (a scrolling region, say): known from now on, not judged.
      if (index < 0) index = controls.push({ element, name: element.tagName.toLowerCase(), unfocused: null }) - 1;
      const style = getComputedStyle(element);
      const focused = `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow}`;
      return { index, name: controls[index]!.name, unchanged: controls[index]!.unfocused === focused };
    });
    // Past the last control the focus leaves the page (or comes round to the first again); a date
    // field takes a Tab for each of its parts.
    if (!landed || (reached.has(landed.index) && landed.index !== previous)) break;
    previous = landed.index;
    if (reached.has(landed.index)) continue;
    reached.add(landed.index);
    if (landed.unchanged) problems.push(`${landed.name} looks the same focused`);
  }
  const missed = await page.evaluate(
    (indices) =>
      (window as unknown as WithControls).controls
        .filter((_, index) => !indices.includes(index))
        .map((control) => `${control.name} is never reached with Tab`),
    [...reached],
  );
  return [...problems, ...missed];
}
