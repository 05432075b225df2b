import { GOALS, RECOMMENDATIONS_READ, SHOWN } from '../../common/limits.ts';
import { mayStudyCourse, requireMember } from '../../common/policies.ts';
import { CATEGORY_LABEL, type Recommendation, type RecommendationsService } from '../../common/recommendations.contract.ts';
import { TIER_LABEL, type Tier } from '../../common/tiers.ts';
import { DEFAULT_TIME_ZONE } from '../../common/time-zones.ts';
import type { Asker } from '../../common/policies.ts';
import { goalViews } from '../goals/goals.service.ts';
import type { DataAccess } from '../repositories.ts';

// The rules behind 'Recommended for you' (docs/decisions/016), in the order they are tried; the
// first rule to name a course gives its reason, and a course is recommended once.
//   1. a course goal not reached yet;
//   2. a course the member started and stopped in, latest first;
//   3. a course whose words match a goal the member is working on;
//   4. a course in a category the member takes courses in;
//   5. a course new since the member's last visit;
//   6. a course their plan includes that they have not started.
// Courses the member finished are never recommended. Everything read is bounded: the catalogue
// (authored, a few hundred courses at most), the member's latest enrolments, their goals, two sign-ins.

/** Words of a goal worth matching: four letters or more, and not the filler of a goal's title. */
const FILLER = new Set(['with', 'from', 'this', 'that', 'week', 'month', 'each', 'every', 'more', 'your', 'calls', 'call']);
const wordsOf = (text: string) => new Set((text.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((word) => !FILLER.has(word)));

type CatalogueCourse = {
  id: string;
  title: string;
  description: string;
  category: keyof typeof CATEGORY_LABEL;
  tier: Tier;
  status: string;
  createdAt: Date;
};

function recommend(asker: Asker, course: CatalogueCourse, reason: string): Recommendation {
  const open = mayStudyCourse(asker, course);
  return {
    course_id: course.id,
    title: course.title,
    reason: open ? reason : `${reason} · Upgrade to ${TIER_LABEL[course.tier]} to open it`,
    href: open ? `/courses/${course.id}` : '/pricing',
    locked: !open,
    upgrade_to: open ? null : course.tier,
  };
}

export function createRecommendationsService(deps: { data: DataAccess }): RecommendationsService {
  const { data } = deps;
  return {
    async forMember(viewer) {
      const member = requireMember(viewer);
      const [catalogue, enrolled, goalRows, signIns] = await Promise.all([
        data.courses.list(),
        data.learning.listEnrolments(member.id, RECOMMENDATIONS_READ.enrolments),
        data.goals.listOf(member.id, GOALS.maxActive),
        data.members.signIns(member.id, 2),
      ]);
      const published = (catalogue as CatalogueCourse[]).filter((course) => course.status === 'published');
      const byId = new Map(published.map((course) => [course.id, course]));
      const finished = new Set(
        enrolled.filter((row) => row.lessonCount > 0 && row.completedCount >= row.lessonCount).map((row) => row.course.id),
      );
      const started = new Set(enrolled.map((row) => row.course.id));
      const picked: Recommendation[] = [];
      const offer = (course: CatalogueCourse | undefined, reason: string) => {
        if (!course || finished.has(course.id) || picked.some((each) => each.course_id === course.id)) return;
        if (picked.length < SHOWN.recommendations) picked.push(recommend(viewer, course, reason));
      };

      const goals = await goalViews(data, goalRows, member.id, member.timeZone ?? DEFAULT_TIME_ZONE);
      for (const goal of goals) {
        if (goal.kind === 'course' && !goal.reached)
          offer(byId.get(goal.course_id ?? ''), `Because your goal is to finish it ${goal.period_label}`);
      }
      for (const row of enrolled) {
        if (row.completedCount < row.lessonCount)
          offer(
            byId.get(row.course.id),
            row.completedCount === 0
              ? 'You enrolled: start with the first lesson'
              : `Pick up where you stopped: ${row.completedCount} of ${row.lessonCount} lessons done`,
          );
      }
      for (const goal of goals.filter((each) => each.kind === 'count')) {
        const wanted = wordsOf(goal.title);
        for (const course of published) {
          const words = wordsOf(`${course.title} ${course.description} ${course.category}`);
          if (!started.has(course.id) && [...wanted].some((word) => words.has(word)))
            offer(course, `Because you are working on ${goal.title}`);
        }
      }
      const categories = new Set(enrolled.map((row) => row.course.category as CatalogueCourse['category']));
      for (const course of published) {
        if (!started.has(course.id) && categories.has(course.category))
          offer(course, `Because you are taking ${CATEGORY_LABEL[course.category]} courses`);
      }
      // The visit before this one: the newest sign-in but the current one.
      const lastVisit = signIns[1]?.lastSeenAt;
      if (lastVisit) {
        for (const course of published)
          if (!started.has(course.id) && course.createdAt > lastVisit) offer(course, 'New since your last visit');
      }
      for (const course of published) {
        if (!started.has(course.id) && mayStudyCourse(viewer, course))
          offer(course, `Included in your ${TIER_LABEL[member.membershipTier]} plan`);
      }
      return picked;
    },
  };
}
