import type { Engagement, EngagementFigure, InsightsService } from '../../common/insights.contract.ts';
import { requireStaff } from '../../common/policies.ts';
import { addDays } from '../../common/time-zones.ts';
import type { Viewer } from '../../common/viewer.ts';
import { csvRow } from '../lists/csv.ts';
import type { DataAccess } from '../repositories.ts';

// The Insights tab's engagement figures (issue 34, part 1), for owners and editors alike: weeks are
// Mondays in UTC, the current one last, each week present (zero when nothing happened in it).

/** Published courses the funnel lists (a catalogue's worth). */
const FUNNEL_COURSES = 200;

/** The Monday of the week `date` (YYYY-MM-DD, UTC) is in. */
function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The last `count` weeks' Mondays, oldest first. */
export function weeksEndingNow(count: number, now = new Date()): string[] {
  const current = mondayOf(now.toISOString().slice(0, 10));
  return Array.from({ length: count }, (_, index) => addDays(current, -7 * (count - 1 - index)));
}

export interface ServerInsightsService extends InsightsService {
  /** A figure as CSV: its rows, a header first. */
  engagementCsv(viewer: Viewer, figure: EngagementFigure, weeks: number): Promise<string>;
}

export function createInsightsService(data: DataAccess): ServerInsightsService {
  async function engagement(viewer: Viewer, query: { weeks: number }): Promise<Engagement> {
    requireStaff(viewer);
    const weeks = weeksEndingNow(query.weeks);
    const from = weeks[0]!;
    const [active, lessons, community, live, funnel, inactive] = await Promise.all([
      data.insights.activeMembers(from),
      data.insights.lessonsCompleted(from),
      data.insights.community(from),
      data.insights.liveSessions(from),
      data.insights.courseFunnel(FUNNEL_COURSES),
      data.insights.inactive(),
    ]);
    const counts = (rows: { week: string; count: number }[]) => new Map(rows.map((row) => [row.week, row.count]));
    const [activeBy, lessonsBy, postsBy, repliesBy] = [active, lessons, community.discussions, community.replies].map(counts);
    const liveBy = new Map(live.map((row) => [row.week, row]));
    return {
      weeks,
      active_members: weeks.map((week) => ({ week, members: activeBy!.get(week) ?? 0 })),
      lessons_completed: weeks.map((week) => ({ week, lessons: lessonsBy!.get(week) ?? 0 })),
      community: weeks.map((week) => ({ week, discussions: postsBy!.get(week) ?? 0, replies: repliesBy!.get(week) ?? 0 })),
      live_sessions: weeks.map((week) => {
        const row = liveBy.get(week);
        return { week, sessions: row?.sessions ?? 0, rsvps: row?.rsvps ?? 0, attended: row?.attended ?? 0 };
      }),
      course_funnel: funnel,
      inactive,
    };
  }

  return {
    engagement,

    async engagementCsv(viewer, figure, weeks) {
      const figures = await engagement(viewer, { weeks });
      const table: (string | number)[][] = (() => {
        switch (figure) {
          case 'active-members':
            return [['week', 'active members'], ...figures.active_members.map((row) => [row.week, row.members])];
          case 'lessons-completed':
            return [['week', 'lessons completed'], ...figures.lessons_completed.map((row) => [row.week, row.lessons])];
          case 'community':
            return [['week', 'discussions', 'replies'], ...figures.community.map((row) => [row.week, row.discussions, row.replies])];
          case 'live-sessions':
            return [
              ['week', 'sessions', 'rsvps', 'attended'],
              ...figures.live_sessions.map((row) => [row.week, row.sessions, row.rsvps, row.attended]),
            ];
          case 'course-funnel':
            return [
              ['course', 'started', '25%', '50%', '75%', 'finished', 'certified'],
              ...figures.course_funnel.map((row) => [
                row.title,
                row.started,
                row.quarter,
                row.half,
                row.three_quarters,
                row.finished,
                row.certified,
              ]),
            ];
          case 'inactive':
            return [
              ['members', 'not seen in 14 days', 'not seen in 30 days'],
              [figures.inactive.members, figures.inactive.days_14, figures.inactive.days_30],
            ];
        }
      })();
      return table.map((row) => csvRow(row.map(String))).join('');
    },
  };
}
