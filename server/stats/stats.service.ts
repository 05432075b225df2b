import { withContentDefaults } from '../../common/content-sections.ts';
import type { StatsService } from '../../common/stats.contract.ts';
import type { DataAccess } from '../repositories.ts';

/** A real count as the pages show it ('12+'), or null while there is none. */
const counted = (count: number) => (count > 0 ? `${count.toLocaleString('en-US')}+` : null);
const written = (value: string) => (value.trim() === '' ? null : value.trim());

export function createStatsService(data: DataAccess): StatsService {
  async function contentStats() {
    const [users, courses] = await Promise.all([data.members.count(), data.courses.count()]);
    return { total_users: users, total_courses: courses };
  }

  return {
    contentStats,

    async siteNumbers() {
      const [counts, stored] = await Promise.all([contentStats(), data.content.find('site_numbers')]);
      const copy = withContentDefaults('site_numbers', stored);
      return {
        members: written(copy.members) ?? counted(counts.total_users),
        courses: written(copy.courses) ?? counted(counts.total_courses),
        rating: written(copy.rating),
        daily_posts: written(copy.daily_posts),
        years: written(copy.years),
      };
    },
  };
}
