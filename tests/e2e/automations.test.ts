import { describe, expect, it } from 'vitest';
import { adminPage, openTab, pageProblems, useBrowser } from './browser.ts';

// Lifecycle mail: an owner reads how each automation does, changes one's text and delay, and
// switches it off; the change is kept.

const browser = useBrowser();

describe('automations', () => {
  it('lets an owner edit an automation and switch it off', async () => {
    const owner = await adminPage(browser);
    await openTab(owner, 'Automations', '/admin/dashboard/automations');
    await owner.getByRole('heading', { name: 'Automations', exact: true }).waitFor();
    const item = owner.getByRole('listitem').filter({ has: owner.getByRole('heading', { name: /^Welcome: live coaching/ }) });
    await item.getByRole('table', { name: 'Welcome: live coaching: the last 90 days' }).waitFor();
    expect(await item.getByRole('columnheader').allTextContents()).toEqual([
      'Sent',
      'Opened (a link followed)',
      'Came back',
      'Upgraded',
      'Paying again',
    ]);

    await item.getByText('Edit Welcome: live coaching').click();
    await item.getByLabel('Subject').fill('Coaching is live this week, {name}');
    await item.getByLabel('Delay: days after sign-up').fill('10');
    await item.getByLabel('Send this mail').uncheck();
    await item.getByRole('button', { name: 'Save Welcome: live coaching' }).click();
    await item.getByRole('status').filter({ hasText: 'Welcome: live coaching: saved, off.' }).waitFor();

    await owner.reload();
    const kept = owner.getByRole('listitem').filter({ has: owner.getByRole('heading', { name: /^Welcome: live coaching/ }) });
    await kept.getByRole('heading', { name: 'Welcome: live coaching (off)' }).waitFor();
    await kept.getByText('10 days after sign-up: “Coaching is live this week, {name}”').waitFor();
    expect(pageProblems(owner)).toEqual([]);
  });
});
