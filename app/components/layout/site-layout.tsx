import { lazy } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { useRootData } from '../../lib/root-data.ts';
import { SiteFooter } from './site-footer.tsx';
import { SiteNav } from './site-nav.tsx';

// SPEC 2 / 4: the loading texts of the pages that load data, shown while a link leads to them.
const LOADING_TEXT: Record<string, string> = {
  '/dashboard': 'Loading dashboard...',
  '/courses': 'Loading courses...',
  '/resources': 'Loading resources...',
};

/**
 * The loading text of the page a link is opening, if it has one. A form that leads to a page (sign
 * in, sign up) keeps its own busy button instead, so the next page appears at once, complete.
 */
function useLoadingText(): string | null {
  const navigation = useNavigation();
  if (navigation.state !== 'loading' || navigation.formMethod) return null;
  return LOADING_TEXT[navigation.location.pathname] ?? null;
}

// Staff's edit mode (SPEC 4), with its switch and the in-place editor: loaded for staff only.
const StaffEditMode = lazy(() => import('../editable/edit-mode.tsx'));

/** SPEC 2 Shared layout: fixed nav, the page, the footer. */
export default function SiteLayout() {
  const root = useRootData();
  const viewer = root?.viewer ?? { member: null, staff: null };
  // SPEC 4: edit mode is off by default and only staff can switch it on. Whether this viewer may is
  // decided by the root loader (common/policies.ts), on the server.
  const editsTexts = root?.editsTexts ?? false;
  const loadingText = useLoadingText();
  const page = (
    <div className="flex min-h-screen flex-col">
      <SiteNav viewer={viewer} unread={root?.unreadNotifications ?? 0} editsTexts={editsTexts} />
      <main id="main" className="flex-1 pt-16">
        {loadingText ? (
          <div className="flex flex-col items-center justify-center gap-4 py-32" role="status">
            <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-800" aria-hidden="true" />
            <p className="text-gray-600">{loadingText}</p>
          </div>
        ) : (
          <Outlet />
        )}
      </main>
      <SiteFooter footerText={root?.footerText} mobileApp={root?.mobileApp} />
    </div>
  );
  return editsTexts ? <StaffEditMode>{page}</StaffEditMode> : page;
}
