import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adminPage, openTab, pageProblems, useBrowser } from './browser.ts';

// Insights: an owner reads revenue, retention and what members did week by week, and takes a figure away as CSV.

const browser = useBrowser();

describe('insights', () => {
  it('shows an owner the revenue, retention and engagement figures with their numbers, and exports the course funnel, the revenue movements and the cohorts', async () => {
    const owner = await adminPage(browser);
    await openTab(owner, 'Insights', '/admin/dashboard/insights');
    await owner.getByRole('figure', { name: "Monthly recurring revenue at each month's end ($)" }).waitFor();
    await owner.getByRole('table', { name: 'What moved the recurring revenue each month' }).waitFor();
    await owner.getByRole('table', { name: 'Churn per tier: plans that ended in the month, of those paying at its start' }).waitFor();
    await owner.getByRole('table', { name: "Where the recurring revenue comes from, at each month's end (plan prices)" }).waitFor();
    const cohorts = owner.getByRole('table', {
      name: 'Retention: members by the month they joined, and the share paying and active each month since',
    });
    expect(await cohorts.getByRole('row').count()).toBe(13);
    await owner.getByRole('figure', { name: 'Members active each week' }).waitFor();
    expect(await owner.getByRole('list', { name: 'Members active each week' }).getByRole('listitem').count()).toBe(12);
    await owner.getByLabel('Period').selectOption('4');
    await owner.getByRole('button', { name: 'Show' }).click();
    await owner.waitForURL(/weeks=4/);
    await expect.poll(() => owner.getByRole('list', { name: 'Lessons completed each week' }).getByRole('listitem').count()).toBe(4);
    await owner.getByRole('row', { name: /^Your First 90 Days in Real Estate/ }).waitFor();

    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('link', { name: 'Course funnel as CSV' }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('"course","started","25%","50%","75%","finished","certified"');
    expect(csv).toContain('"Your First 90 Days in Real Estate"');
    const [revenue] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('link', { name: 'Revenue movements as CSV' }).click(),
    ]);
    expect(fs.readFileSync((await revenue.path())!, 'utf8').split('\r\n')[0]).toBe(
      '"month","new","expansion","contraction","churned","reactivated","members churned"',
    );
    const [retention] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('link', { name: 'Retention cohorts as CSV' }).click(),
    ]);
    expect(fs.readFileSync((await retention.path())!, 'utf8').split('\r\n')[0]).toBe(
      '"joined","members","month","months after joining","active","active %","paying","paying %"',
    );
    expect(pageProblems(owner)).toEqual([]);
  });
});
