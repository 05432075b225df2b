import { describe, expect, it } from 'vitest';
import { serviceTestApp } from '../../tests/helpers/service-tests.ts';

// The tip of the day: the daily tips take turns, one per date, the same for every member.

const t = serviceTestApp();

describe('the tip of the day', () => {
  it('gives every member the same tip on a date, and the next tip the next day, round and round', async () => {
    const owner = await t.asStaff('owner');
    const free = await t.asMember('free');
    expect(await t.app.services.resources.tipOfTheDay(free, '2026-12-01')).toBeNull();
    for (const title of ['Call three past clients', 'Post one local market fact', 'Walk a new listing'])
      await t.app.services.resourceAuthoring.create(owner, {
        title,
        description: `${title} today.`,
        resource_type: 'daily_tip',
        tier_required: 'bronze',
        file_id: null,
        download_url: '',
      });
    const gold = await t.asMember('gold');
    const titles = [];
    for (const date of ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04']) {
      const [forFree, forGold] = [
        await t.app.services.resources.tipOfTheDay(free, date),
        await t.app.services.resources.tipOfTheDay(gold, date),
      ];
      expect(forGold?.title).toBe(forFree?.title);
      titles.push(forFree!.title);
    }
    expect(new Set(titles.slice(0, 3)).size).toBe(3);
    expect(titles[3]).toBe(titles[0]);
  });
});
