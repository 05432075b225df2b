import { data, redirect } from 'react-router';
import { z } from 'zod';
import { memberPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/open';

// Opening a notification marks it read (on every device: the mark is on the server) and goes where
// it leads. Only the member's own: another's id is not found.

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const id = z.uuid().safeParse(params.id);
  const to = id.success ? await services.notifications.open(viewer, id.data) : null;
  if (!to) throw data('Notification not found', { status: 404 });
  throw redirect(to.startsWith('/') && !to.startsWith('//') ? to : '/notifications');
}
