import { data, Link } from 'react-router';
import { pageMeta } from '../lib/meta.ts';
import { buttonClass } from '../components/ui/button.tsx';

// Any path no route matches answers 404 with this page inside the shared layout.
export function loader() {
  return data(null, { status: 404 });
}

export const meta = () => pageMeta({ title: 'Page not found', description: 'The page you are looking for does not exist.' });

export default function NotFound() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-gold-600">404</p>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-800">Page not found</h1>
      <p className="mt-4 text-gray-600">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClass()}>
          Back to Home
        </Link>
        <Link to="/courses" className={buttonClass({ variant: 'outline' })}>
          Browse Courses
        </Link>
      </div>
    </section>
  );
}
