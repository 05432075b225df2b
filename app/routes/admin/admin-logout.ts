import { redirect } from 'react-router';
import { pageSession } from '../../lib/page-context.ts';
import type { Route } from './+types/admin-logout';

// SPEC 4: Logout ends the staff session and goes to /admin/login.
export async function action({ context }: Route.ActionArgs) {
  await pageSession(context).staffSignOut();
  return redirect('/admin/login');
}

export const loader = () => redirect('/admin/login');
