import { useEffect } from 'react';
import { Form, Link, Outlet, redirect } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { mayEnterStaffArea, STAFF_AREAS, type StaffArea } from '../../../common/policies.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { staffPageServices } from '../../lib/page-context.ts';
import { unlessRequestFailed } from '../../lib/forms.ts';
import type { Route } from './+types/admin-dashboard';

export const meta = () => pageMeta({ title: 'Admin Dashboard', description: `${BRAND_NAME} administration.` });

// Checked on the server: no staff session, no dashboard (SPEC 4 sends the visitor to /admin/login).
// A page whose form request failed keeps its data (see unlessRequestFailed).
export const shouldRevalidate = unlessRequestFailed;

export function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const session = services.staff.session(viewer);
  // Owners require two-factor sign-in and this account has not set it up: that comes first.
  if (session.two_factor_setup_needed && new URL(request.url).pathname !== SECURITY_TAB) throw redirect(SECURITY_TAB);
  // The tabs of the areas this staff member's role includes (each route checks again).
  return { ...session, areas: STAFF_AREAS.filter((area) => mayEnterStaffArea(viewer, area)) };
}

const SECURITY_TAB = '/admin/dashboard/security';

// SPEC 2: Podcasts (the default), File Upload and Content come first; then the staff-only extras.
// Each tab belongs to an area of policies.ts; Insights (its engagement half) and Security are every staff member's.
const TABS: { to: string; label: string; area?: StaffArea; alsoAt?: string }[] = [
  { to: '/admin/dashboard/podcasts', label: 'Podcasts', area: 'content', alsoAt: '/admin/dashboard' },
  { to: '/admin/dashboard/files', label: 'File Upload', area: 'content' },
  { to: '/admin/dashboard/content', label: 'Content', area: 'content' },
  { to: '/admin/dashboard/courses', label: 'Courses', area: 'content' },
  { to: '/admin/dashboard/resources', label: 'Resources', area: 'content' },
  { to: '/admin/dashboard/coaching', label: 'Coaching', area: 'coaching' },
  { to: '/admin/dashboard/members', label: 'Members', area: 'members' },
  { to: '/admin/dashboard/staff', label: 'Staff', area: 'staff' },
  { to: '/admin/dashboard/community', label: 'Community', area: 'community' },
  { to: '/admin/dashboard/messages', label: 'Messages', area: 'messages' },
  { to: '/admin/dashboard/broadcasts', label: 'Broadcasts', area: 'broadcasts' },
  { to: '/admin/dashboard/automations', label: 'Automations', area: 'broadcasts' },
  { to: '/admin/dashboard/offers', label: 'Offers', area: 'billing' },
  { to: '/admin/dashboard/activity', label: 'Activity', area: 'activity' },
  { to: '/admin/dashboard/insights', label: 'Insights' },
  { to: '/admin/dashboard/security', label: 'Security' },
];

/** SPEC 3: the admin email is kept in local storage for display; the session itself is an HttpOnly cookie. */
const ADMIN_EMAIL_KEY = 'adminEmail';

export default function AdminDashboardLayout({ loaderData, matches }: Route.ComponentProps) {
  const { email, areas } = loaderData;
  const path = matches.at(-1)?.pathname.replace(/\/$/, '') ?? '';
  useEffect(() => window.localStorage.setItem(ADMIN_EMAIL_KEY, email), [email]);

  return (
    <div className="min-h-screen bg-gray-100">
      <header className="bg-brand-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-extrabold">Admin Dashboard</h1>
            <p className="truncate text-sm text-gold-100">{email}</p>
          </div>
          <div className="flex items-center gap-3">
            <Link to="/" className="inline-flex min-h-11 items-center text-sm font-semibold text-gold-300 hover:text-white">
              View Site
            </Link>
            <Form
              method="post"
              action="/admin/logout"
              onSubmit={() => {
                // SPEC 4: logout forgets adminToken and adminEmail.
                window.localStorage.removeItem(ADMIN_EMAIL_KEY);
                window.localStorage.removeItem('adminToken');
              }}
            >
              <button type="submit" className={buttonClass({ variant: 'white', size: 'sm' })}>
                Logout
              </button>
            </Form>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <nav aria-label="Admin sections">
          <ul className="flex flex-wrap gap-2">
            {TABS.filter((tab) => tab.area === undefined || areas.includes(tab.area)).map((tab) => {
              const current = path === tab.to || path.startsWith(`${tab.to}/`) || path === tab.alsoAt;
              return (
                <li key={tab.to}>
                  <Link
                    to={tab.to}
                    aria-current={current ? 'page' : undefined}
                    className={`inline-flex min-h-11 items-center rounded-lg px-4 text-sm font-semibold ${current ? 'bg-brand-800 text-white' : 'bg-white text-gray-700 hover:bg-gray-50'}`}
                  >
                    {tab.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="mt-4 rounded-2xl bg-white p-5 shadow-sm">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
