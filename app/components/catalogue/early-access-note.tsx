import type { Course } from '../../../common/courses.contract.ts';
import { formatDate } from '../../../common/format.ts';
import { TIER_LABEL } from '../../../common/tiers.ts';

/** Gold's early access on a course: Gold's now, open to its own tier on a date (midnight in the business's zone, a date the same in UTC). */
export function EarlyAccessNote({ course, className = '' }: { course: Pick<Course, 'early_access'>; className?: string }) {
  if (!course.early_access) return null;
  const { opens_to: tier, opens_at: opensAt } = course.early_access;
  return (
    <p className={`text-xs font-semibold ${className}`}>
      Gold early access · opens to {TIER_LABEL[tier]} members on {formatDate(opensAt)}
    </p>
  );
}
