import type { StatsService } from '../../common/stats.contract.ts';
import type { DataAccess } from '../repositories.ts';

export function createStatsService(data: DataAccess): StatsService {
  return {
    async contentStats() {
      const [users, courses] = await Promise.all([data.members.count(), data.courses.count()]);
      return { total_users: users, total_courses: courses };
    },
  };
}
