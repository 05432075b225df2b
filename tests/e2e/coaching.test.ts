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
