import { lazy, Suspense, useMemo, useState } from 'react';
import { COURSE_CATEGORIES } from '../../../common/course-kinds.ts';
import { matchesSearch } from '../../../common/search.ts';
import { TIER_LABEL, TIERS } from '../../../common/tiers.ts';
import { CourseCard } from '../../components/catalogue/course-card.tsx';
import { ListResults } from '../../components/catalogue/list-results.tsx';
import { SearchFilters } from '../../components/catalogue/search-filters.tsx';
import { CallToAction } from '../../components/ui/call-to-action.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { orFallback, pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/catalogue';

export const meta = () =>
  pageMeta({
    title: 'Courses',
    description: 'Self-paced video courses for real estate agents and brokers: sales, marketing, negotiation, specialization and business.',
    path: '/courses',
  });

export async function loader({ context }: Route.LoaderArgs) {
  return { courses: await orFallback(pageServices(context).services.courses.list(), [], 'courses') };
}

// What the videos say is searched on the server, once a search is typed: its code comes with it.
const VideoMomentsFound = lazy(() =>
  import('../../components/learning/video-moments-found.tsx').then((module) => ({ default: module.VideoMomentsFound })),
);

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export default function CoursesPage({ loaderData }: Route.ComponentProps) {
  const { courses } = loaderData;
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('all');
  const [tier, setTier] = useState('all');

  // SPEC 4: filters and search apply in the browser to the fetched list.
  const visible = useMemo(
    () =>
      courses.filter(
        (course) =>
          matchesSearch(course, search) && (category === 'all' || course.category === category) && (tier === 'all' || course.tier === tier),
      ),
    [courses, search, category, tier],
  );

  return (
    <>
      <PageHeader
        title="Expert-Led Courses"
        subtitle="Self-paced video training from agents, brokers and lenders who have done it: learn on your phone, between showings."
      />
      <section className="mx-auto max-w-6xl px-4 py-10">
        <SearchFilters
          search={search}
          onSearch={setSearch}
          searchLabel="Search courses..."
          selects={[
            {
              id: 'category-filter',
              label: 'Category',
              value: category,
              onChange: setCategory,
              options: [{ value: 'all', label: 'All Categories' }, ...COURSE_CATEGORIES.map((c) => ({ value: c, label: capitalize(c) }))],
            },
            {
              id: 'tier-filter',
              label: 'Membership Tier',
              value: tier,
              onChange: setTier,
              options: [{ value: 'all', label: 'All Tiers' }, ...TIERS.map((t) => ({ value: t, label: TIER_LABEL[t] }))],
            },
          ]}
        />
        <ListResults count={visible.length} noun="course" emptyText="No courses found matching your criteria">
          {visible.map((course, index) => (
            <CourseCard key={course.id} course={course} aboveTheFold={index === 0} />
          ))}
        </ListResults>
        {search.trim() !== '' && (
          <Suspense fallback={null}>
            <VideoMomentsFound words={search} />
          </Suspense>
        )}
      </section>
      <CallToAction
        title="Want Access to ALL Courses?"
        text="Upgrade your membership to unlock every course, live coaching and the full resources library."
        actions={[{ to: '/pricing', label: 'View Membership Plans' }]}
      />
    </>
  );
}
