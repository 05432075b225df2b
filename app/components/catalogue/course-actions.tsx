import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { mayStudyCourse } from '../../../common/policies.ts';
import type { Tier } from '../../../common/tiers.ts';
import type { PublicViewer } from '../../../common/viewer.ts';
import { ButtonLink } from '../ui/button.tsx';

export type EnrolState = 'signed-out' | 'not-entitled' | 'entitled';

/** SPEC 2/4 Course detail: which main button a viewer sees. */
export function enrolState(viewer: PublicViewer | undefined, course: { tier: Tier }): EnrolState {
  if (!viewer?.member) return 'signed-out';
  return mayStudyCourse(viewer, course) ? 'entitled' : 'not-entitled';
}

/** 'Sign Up to Enroll' with a 'Log in' link, 'Upgrade to Access', or (entitled) the 'Start Learning' form given. */
export function CourseMainAction({ state, startLearning }: { state: EnrolState; startLearning: ReactNode }) {
  if (state === 'signed-out') {
    return (
      <div className="flex flex-wrap items-center gap-4">
        <ButtonLink to="/signup" variant="gold">
          Sign Up to Enroll
        </ButtonLink>
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
      <ButtonLink to="/pricing" variant="gold">
        Upgrade to Access
      </ButtonLink>
    );
  }
  return startLearning;
}
