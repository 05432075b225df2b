import { describe, expect, it } from 'vitest';
import { gotoHydrated, signInAsStaff, signInAtTier, toast, useBrowser } from './browser.ts';

const browser = useBrowser();
const TAP_TARGET_PX = 44;

/** A Silver session two days from now (or what `details` make of it), scheduled by staff through the admin API; returns its id. */
async function scheduleSession(title: string, details: Record<string, unknown> = {}): Promise<string> {
  const staff = await browser.newPage();
  await signInAsStaff(staff);
  const [host] = (await (await staff.request.get('/api/admin/coaching/hosts')).json()) as { id: string }[];
  const start = new Date(Date.now() + 2 * 24 * 3600_000);
  const answer = await staff.request.post('/api/admin/coaching/series', {
    data: {
      title,
      description: 'Open questions on listings.',
      host_staff_id: host!.id,
      date: start.toISOString().slice(0, 10),
      time: '18:00',
      time_zone: 'America/Chicago',
      duration_minutes: 60,
      min_tier: 'silver',
      capacity: 20,
      join_url: 'https://meet.example.com/silver-room',
      ...details,
    },
  });
  expect(answer.status()).toBe(201);
  await staff.close();
  return ((await answer.json()) as { id: string }).id;
}

describe('live coaching on a phone', () => {
  it('lets a Silver member RSVP to a session and add it to their calendar', async () => {
    const title = `Listing clinic ${Date.now()}`;
    await scheduleSession(title);
    const { page } = await signInAtTier(browser, 'silver', 'Sam Silver', { mobile: true });
    await gotoHydrated(page, '/dashboard');
    await page.getByRole('link', { name: 'See upcoming sessions' }).click();
    await page.getByRole('heading', { name: 'Live Coaching' }).waitFor();

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card.getByText('20 of 20 places left').waitFor();
    const rsvp = card.getByRole('button', { name: 'RSVP' });
    expect((await rsvp.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await rsvp.click();
    await toast(page, "You're in: see you there!");
    await card.getByText("✓ You RSVP'd").waitFor();
    await card.getByRole('button', { name: 'Cancel RSVP' }).waitFor();

    const calendarLink = card.getByRole('link', { name: 'Add to calendar' });
    expect((await calendarLink.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    const [download] = await Promise.all([page.waitForEvent('download'), calendarLink.click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const stream = await download.createReadStream();
    let text = '';
    for await (const chunk of stream) text += chunk.toString();
    expect(text).toContain(`SUMMARY:${title}`);

    // The dashboard now shows it as the member's next session.
    await gotoHydrated(page, '/dashboard');
    await expect.poll(() => page.getByTestId('next-session').textContent()).toContain(title);
  });

  it('puts a Gold member on the waiting list of a full event in person, and seats them when a place is given back', async () => {
    const title = `Brokers' dinner ${Date.now()}`;
    const address = '14 Harbor Street, Austin';
    const eventId = await scheduleSession(title, { kind: 'event', min_tier: 'gold', capacity: 1, join_url: '', address });
    const { page: first } = await signInAtTier(browser, 'gold', 'Gil First');
    expect((await first.request.post(`/api/coaching/sessions/${eventId}/rsvp`)).status()).toBe(201);

    const { page } = await signInAtTier(browser, 'gold', 'Gina Gold', { mobile: true });
    await gotoHydrated(page, '/coaching');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await card.getByText(`In person: ${address}`).waitFor();
    await card.getByText('No places left').waitFor();
    const wait = card.getByRole('button', { name: 'Join the waiting list' });
    expect((await wait.boundingBox())!.height).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    await wait.click();
    await toast(page, "You're on the waiting list: we'll email you if a place opens.");
    await card.getByText('On the waiting list').waitFor();

    expect((await first.request.delete(`/api/coaching/sessions/${eventId}/rsvp`)).status()).toBe(200);
    await gotoHydrated(page, '/coaching');
    await card.getByText("✓ You RSVP'd").waitFor();
  });
});

describe('the Coaching tab', () => {
  it('has staff schedule a session from its form and edit its details, the form showing what is stored', async () => {
    const page = await browser.newPage();
    await signInAsStaff(page);
    await gotoHydrated(page, '/admin/dashboard/coaching');
    const title = `Pricing clinic ${Date.now()}`;
    const scheduling = page.locator('form', { has: page.getByRole('button', { name: 'Schedule', exact: true }) });
    await scheduling.getByLabel('Title').fill(title);
    await scheduling.getByLabel('Description').fill('Bring a listing you are pricing this week.');
    await scheduling.getByLabel('Lowest tier that may join').selectOption('gold');
    const day = new Date(Date.now() + 2 * 24 * 3600_000).toISOString().slice(0, 10);
    await scheduling.getByLabel('Date').fill(day);
    await scheduling.getByLabel('Start time').fill('06:00');
    await scheduling.getByLabel('Join link (https://)').fill('https://meet.example.com/pricing-clinic');
    await scheduling.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText(`“${title}” is scheduled.`).waitFor();

    const item = page.getByRole('listitem').filter({ hasText: title });
    await item.getByText('Edit this session’s details').click();
    expect(await item.getByLabel('Title').inputValue()).toBe(title);
    expect(await item.getByLabel('Description').inputValue()).toBe('Bring a listing you are pricing this week.');
    expect(await item.getByLabel('Lowest tier that may join').inputValue()).toBe('gold');
    expect(await item.getByLabel('Host').inputValue()).not.toBe('');
    await item.getByLabel('Description').fill('Bring two listings you are pricing this week.');
    await item.getByRole('button', { name: 'Save', exact: true }).click();
    await item.getByText('Saved for every coming session; those who RSVP’d are told of what changed.').waitFor();
    await gotoHydrated(page, '/admin/dashboard/coaching');
    await page.getByRole('listitem').filter({ hasText: title }).getByText('Edit this session’s details').click();
    expect(await page.getByRole('listitem').filter({ hasText: title }).getByLabel('Description').inputValue()).toBe(
      'Bring two listings you are pricing this week.',
    );
  });
});
