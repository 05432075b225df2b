import { describe, expect, it } from 'vitest';
import { CONTENT_DEFAULTS } from '../../common/content-sections.ts';
import { courses, members } from '../../db/schema.ts';
import { serviceTestApp } from '../../tests/helpers/service-tests.ts';

// The public numbers: real counts of members and of the catalogue, unless staff wrote their own copy.

const t = serviceTestApp();

const stats = () => t.app.services.stats;
/** A course row as the catalogue stores it, in this state (written straight to the database). */
const courseRow = (id: string, status: 'draft' | 'published' | 'archived') => ({
  id,
  title: id,
  description: 'A course to count.',
  category: 'sales' as const,
  tier: 'free' as const,
  thumbnail: '',
  duration: '1h',
  instructor: 'Dana Whitfield',
  status,
});

describe('site numbers', () => {
  it('shows no count while there is nothing to count, never "0+", and the default copy for the rest', async () => {
    expect(await stats().contentStats()).toEqual({ total_users: 0, total_courses: 0 });
    expect(await stats().siteNumbers()).toEqual({
      members: null,
      courses: null,
      rating: CONTENT_DEFAULTS.site_numbers.rating,
      daily_posts: CONTENT_DEFAULTS.site_numbers.daily_posts,
      years: CONTENT_DEFAULTS.site_numbers.years,
    });
  });

  it('counts every member and only the published courses (drafts and archived ones are not in the catalogue)', async () => {
    await t.asMember('free');
    await t.asMember('gold', { suspended: true });
    await t.db
      .insert(courses)
      .values([courseRow('published', 'published'), courseRow('draft', 'draft'), courseRow('archived', 'archived')]);

    // Written straight to the database, as another server would: this one hears of it within a second.
    await expect.poll(() => stats().contentStats()).toEqual({ total_users: 2, total_courses: 1 });
    expect(await stats().siteNumbers()).toMatchObject({ members: '2+', courses: '1+' });
  });

  it('writes large counts with thousands separators', async () => {
    await t.db
      .insert(members)
      .values(
        Array.from({ length: 1000 }, (_, index) => ({ name: `Bulk ${index}`, email: `bulk-${index}@example.com`, passwordHash: 'x' })),
      );
    await expect.poll(async () => (await stats().siteNumbers()).members).toBe('1,002+');
  });

  it('prefers the copy staff wrote (trimmed) over the counts, and goes back to the count when it is left blank', async () => {
    const editor = await t.asStaff('editor');
    const copy = { ...CONTENT_DEFAULTS.site_numbers, members: ' 10,000+ ', courses: '50+', rating: '5.0', years: '20+' };
    await t.app.services.content.save(editor, 'site_numbers', copy);
    expect(await stats().siteNumbers()).toEqual({ members: '10,000+', courses: '50+', rating: '5.0', daily_posts: '50+', years: '20+' });

    await t.app.services.content.save(editor, 'site_numbers', { ...copy, members: '   ', courses: '' });
    expect(await stats().siteNumbers()).toMatchObject({ members: '1,002+', courses: '1+' });
    // The real counts stay what they are, whatever the copy says.
    expect(await stats().contentStats()).toEqual({ total_users: 1002, total_courses: 1 });
  });
});
