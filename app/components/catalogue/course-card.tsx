import { Link } from 'react-router';
import type { Course } from '../../../common/courses.contract.ts';
import { EarlyAccessNote } from './early-access-note.tsx';
import { TierBadge } from './tier-badge.tsx';
import { buttonClass } from '../ui/button.tsx';
import { responsiveImage } from '../../lib/responsive-image.ts';

/** A card is the screen's width on a phone, half of it on a tablet, a third on a desktop. */
const CARD_SIZES = '(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw';

/**
 * SPEC 2 Courses: thumbnail, tier badge, title, description, duration, lesson count, instructor, 'View Course'.
 * The first cards are on screen at once, so their images load first; the rest wait until scrolled to.
 */
export function CourseCard({ course, aboveTheFold = false }: { course: Course; aboveTheFold?: boolean }) {
  return (
    <article className="relative flex flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm transition hover:shadow-md focus-within:ring-2 focus-within:ring-brand-700">
      <div className="relative aspect-video">
        <img
          {...responsiveImage(course.thumbnail, CARD_SIZES)}
          alt=""
          width={640}
          height={360}
          loading={aboveTheFold ? 'eager' : 'lazy'}
          fetchPriority={aboveTheFold ? 'high' : 'auto'}
          className="img-skeleton h-full w-full object-cover"
        />
        <TierBadge tier={course.tier} className="absolute left-3 top-3" />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 className="text-lg font-bold text-gray-900">{course.title}</h2>
        <EarlyAccessNote course={course} className="mt-1 text-amber-800" />
        <p className="mt-2 flex-1 text-sm text-gray-600">{course.description}</p>
        <dl className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-500">
          <div>
            <dt className="sr-only">Duration</dt>
            <dd>{course.duration}</dd>
          </div>
          <div>
            <dt className="sr-only">Lessons</dt>
            <dd>{course.lesson_count} lessons</dd>
          </div>
          <div>
            <dt className="sr-only">Instructor</dt>
            <dd>{course.instructor}</dd>
          </div>
        </dl>
        {/* The whole card opens the course. */}
        <Link to={`/courses/${course.id}`} className={buttonClass({ size: 'sm', className: 'mt-5 after:absolute after:inset-0' })}>
          View Course
        </Link>
      </div>
    </article>
  );
}
