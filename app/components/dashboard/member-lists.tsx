import { Link } from 'react-router';
import type { ReplyNotice } from '../../../common/community.contract.ts';
import { formatDate } from '../../../common/format.ts';
import type { EnrolledCourse, MemberCertificate } from '../../../common/learning.contract.ts';
import { TierBadge } from '../catalogue/tier-badge.tsx';

// A member's own lists as the dashboard shows their first items and /dashboard/{list} every page.

/** A link under a list that is at least 44 px tall, so it is easy to tap on a phone. */
export const LIST_LINK_CLASS = 'inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600';

export function EnrolledCourseItem({ course }: { course: EnrolledCourse }) {
  return (
    <li className="flex gap-3">
      <img src={course.thumbnail} alt="" width={112} height={63} className="img-skeleton h-16 w-28 shrink-0 rounded-lg object-cover" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold text-gray-900">{course.title}</p>
          <TierBadge tier={course.tier} />
        </div>
        <div
          className="mt-2 h-2 rounded-full bg-gray-200"
          role="progressbar"
          aria-label={`${course.title} progress`}
          aria-valuenow={course.progress_percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-2 rounded-full bg-gold-500" style={{ width: `${course.progress_percent}%` }} />
        </div>
        <div className="mt-1 flex items-center justify-between text-xs text-gray-600">
          <span>{course.progress_percent}% complete</span>
          <Link
            to={`/courses/${course.id}`}
            className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600"
          >
            Continue
          </Link>
        </div>
      </div>
    </li>
  );
}

export function CertificateItem({ certificate }: { certificate: MemberCertificate }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-gold-100 px-3 py-2">
      <div>
        <p className="font-semibold text-gray-900">{certificate.course_title}</p>
        <p className="text-xs text-gray-600">
          Issued {formatDate(certificate.issued_at)} · Code {certificate.code}
        </p>
      </div>
      <div className="flex gap-3 text-sm font-semibold">
        <a
          href={`/api/certificates/${certificate.code}/pdf`}
          className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600"
        >
          Download PDF
        </a>
        <Link to={`/certificates/${certificate.code}`} className="inline-flex min-h-11 items-center text-brand-800 hover:text-brand-600">
          Verify
        </Link>
      </div>
    </li>
  );
}

export function ReplyNoticeItem({ notice }: { notice: ReplyNotice }) {
  return (
    <li className="text-sm">
      <p>
        <span className="font-semibold text-gray-900">{notice.author_name}</span> <span className="text-gray-600">replied to</span>{' '}
        <Link to={`/community/${encodeURIComponent(notice.post_id)}`} className="font-semibold text-brand-800 hover:text-brand-600">
          {notice.post_title}
        </Link>{' '}
        <span className="text-gray-500">{formatDate(notice.created_at)}</span>
      </p>
      <p className="mt-1 text-gray-600">{notice.excerpt}</p>
    </li>
  );
}
