import { Form, Link, redirect } from 'react-router';
import { formatDate } from '../../../common/format.ts';
import type { NotificationView } from '../../../common/notifications.contract.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { pageMeta } from '../../lib/meta.ts';
import { listPageOf, memberPageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/notifications';

// The bell's page: what concerns the member, latest first, a page at a time; opening one marks it
// read on every device (it goes through /notifications/{id}); 'Mark all as read' works without JavaScript.

export const meta = () => pageMeta({ title: 'Notifications', description: 'Replies, mentions, sessions, courses and reminders for you.' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, viewer } = memberPageServices(context);
  const page = await services.notifications.page(viewer, listPageOf(request));
  return { items: page.items, next: page.next_cursor, unread: page.unread };
}

export async function action({ context }: Route.ActionArgs) {
  const { services, viewer } = memberPageServices(context);
  await services.notifications.markRead(viewer);
  throw redirect('/notifications');
}

const KIND_LABEL: Record<NotificationView['kind'], string> = {
  reply: 'Reply',
  mention: 'Mention',
  like: 'Likes',
  session: 'Live coaching',
  recording: 'Recording',
  reminder: 'Reminder',
  course: 'New course',
  broadcast: 'News',
};

function NotificationItem({ notification }: { notification: NotificationView }) {
  return (
    <Card as="li" className={`p-0 ${notification.read ? '' : 'border-l-4 border-l-gold-500'}`} data-testid="notification">
      <Link to={`/notifications/${notification.id}`} className="block min-h-11 p-4">
        <span className="text-xs font-semibold tracking-wide text-gray-500 uppercase">
          {KIND_LABEL[notification.kind]} · {formatDate(notification.updated_at)}
          {!notification.read && <span className="ml-2 text-brand-800">New</span>}
        </span>
        <span className={`mt-1 block text-gray-900 ${notification.read ? '' : 'font-bold'}`}>{notification.title}</span>
        {notification.body && <span className="mt-1 line-clamp-2 block text-sm text-gray-600">{notification.body}</span>}
      </Link>
    </Card>
  );
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { items, next, unread } = loaderData;
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-extrabold text-gray-900 sm:text-3xl">Notifications</h1>
        <div className="flex flex-wrap items-center gap-3">
          {unread > 0 && (
            <Form method="post">
              <Button type="submit" size="sm" variant="outline">
                Mark all as read
              </Button>
            </Form>
          )}
          <Link
            to="/notifications/settings"
            className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
          >
            Settings
          </Link>
        </div>
      </div>
      {items.length === 0 ? (
        <p className="text-gray-700">Nothing yet. Replies to your discussions, new sessions and courses, and your reminders appear here.</p>
      ) : (
        <ul className="space-y-3">
          {items.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} />
          ))}
        </ul>
      )}
      <Pager param="before" next={next} label="Older" />
    </div>
  );
}
