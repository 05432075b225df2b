import { redirect } from 'react-router';
import { pageSession } from '../../lib/page-context.ts';
import type { Route } from './+types/logout';

// SPEC 2: Logout ends the member's session and goes to /.
export async function action({ context }: Route.ActionArgs) {
  await pageSession(context).signOut();
  return redirect('/');
}

// Signing out only ever happens by a form post; a visit to /logout just goes home.
export const loader = () => redirect('/');
