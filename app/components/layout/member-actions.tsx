import { Form, Link } from 'react-router';
import { NOTIFICATIONS } from '../../../common/limits.ts';
import type { PublicViewer } from '../../../common/viewer.ts';
import { buttonClass } from '../ui/button.tsx';
import { ACTION_LINK } from './site-nav.tsx';

// The nav's signed-in actions: a visitor never sees them, so site-nav.tsx loads this file for a
// signed-in member only (React.lazy) and a visitor's pages do not download it.

/** The bell beside the signed-in actions: the notifications page, with how many are unread. */
function NotificationBell({ unread, onClick }: { unread: number; onClick: () => void }) {
  const count = unread >= NOTIFICATIONS.unreadShownUpTo ? `${NOTIFICATIONS.unreadShownUpTo - 1}+` : String(unread);
  return (
    <Link
      to="/notifications"
      onClick={onClick}
      aria-label={unread > 0 ? `Notifications, ${count} unread` : 'Notifications'}
      className="relative inline-flex min-h-11 min-w-10 shrink-0 items-center justify-center text-brand-800 hover:text-brand-600"
    >
      <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 && (
        <span
          data-testid="unread-count"
          className="absolute top-1 right-0 min-w-5 rounded-full bg-brand-800 px-1 text-center text-xs font-bold text-white"
        >
          {count}
        </span>
      )}
    </Link>
  );
}

/** SPEC 2's signed-in actions: the welcome line, the bell, Dashboard, Coaching (and the CE ledger's Licence) and Logout. */
export default function MemberActions({
  member,
  unread,
  onNavigate,
}: {
  member: NonNullable<PublicViewer['member']>;
  unread: number;
  /** Closes the phone menu. */
  onNavigate: () => void;
}) {
  return (
    <>
      {/* SPEC 2's welcome line, which also opens the account settings (room is short beside the bell). */}
      <Link
        to="/account"
        onClick={onNavigate}
        aria-label={`Welcome, ${member.name}: Account`}
        className="inline-flex min-h-11 min-w-0 max-w-40 items-center text-sm text-gray-700 hover:text-brand-800"
      >
        <span className="truncate">Welcome, {member.name}</span>
      </Link>
      <NotificationBell unread={unread} onClick={onNavigate} />
      <Link to="/dashboard" onClick={onNavigate} className={ACTION_LINK}>
        Dashboard
      </Link>
      <Link to="/coaching" onClick={onNavigate} className={ACTION_LINK}>
        Coaching
      </Link>
      {/* The CE ledger: in the phone menu; on a wider screen the dashboard's 'Your Licence' leads there (the header has no room). */}
      <Link to="/licence" onClick={onNavigate} className={`${ACTION_LINK} md:hidden`}>
        Licence
      </Link>
      <Form method="post" action="/logout" onSubmit={onNavigate}>
        <button type="submit" className={buttonClass({ variant: 'outline', size: 'sm' })}>
          Logout
        </button>
      </Form>
    </>
  );
}
