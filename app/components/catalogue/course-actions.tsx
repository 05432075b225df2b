import { Link } from 'react-router';
import { toast } from 'sonner';
import type { Tier } from '../../../common/tiers.ts';
import { isEntitled } from '../../../common/tiers.ts';

export type EnrolState = 'signed-out' | 'not-entitled' | 'entitled';

/** SPEC 2/4 Course detail: which main button a viewer sees. */
export function enrolState(memberTier: Tier | null, courseTier: Tier): EnrolState {
  if (!memberTier) return 'signed-out';
  return isEntitled(memberTier, courseTier) ? 'entitled' : 'not-entitled';
}

const primary = 'inline-flex justify-center rounded-lg bg-gold-400 px-6 py-3 font-semibold text-brand-900 shadow hover:bg-gold-300';

/** 'Start Learning', 'Upgrade to Access' or 'Sign Up to Enroll' with a 'Log in' link. */
export function CourseMainAction({ state, onStartLearning }: { state: EnrolState; onStartLearning?: () => void }) {
  if (state === 'signed-out') {
    return (
      <div className="flex flex-wrap items-center gap-4">
        <Link to="/signup" className={primary}>
          Sign Up to Enroll
        </Link>
        <span className="text-sm text-gold-100">
          Already a member?{' '}
          <Link to="/login" className="font-semibold text-white underline">
            Log in
          </Link>
        </span>
      </div>
    );
  }
  if (state === 'not-entitled') {
    return (
      <Link to="/pricing" className={primary}>
        Upgrade to Access
      </Link>
    );
  }
  return (
    <button type="button" className={primary} onClick={onStartLearning ?? (() => toast.success('Enrolled successfully!'))}>
      Start Learning
    </button>
  );
}
