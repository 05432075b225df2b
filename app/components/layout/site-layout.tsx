import { useMemo, useState } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { EditModeContext } from '../editable/editable-text.tsx';
import { useRootData } from '../../root.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteNav } from './site-nav.tsx';

/** SPEC 2 Shared layout: fixed nav, the page, the footer. */
export default function SiteLayout() {
  const root = useRootData();
  const viewer = root?.viewer ?? { member: null, staff: null };
  // SPEC 4: edit mode is off by default and only staff can switch it on.
  const [editing, setEditing] = useState(false);
  const editMode = useMemo(
    () => ({ enabled: editing && Boolean(viewer.staff), toggle: () => setEditing((on) => !on) }),
    [editing, viewer.staff],
  );
  const navigation = useNavigation();
  // SPEC 2: the dashboard shows a spinner with 'Loading dashboard...' while its data loads.
  const loadingDashboard = navigation.state === 'loading' && navigation.location.pathname === '/dashboard';
  return (
    <EditModeContext.Provider value={editMode}>
      <div className="flex min-h-screen flex-col">
        <SiteNav
          viewer={viewer}
          editControl={
            viewer.staff ? (
              <button
                type="button"
                onClick={editMode.toggle}
                aria-pressed={editMode.enabled}
                className="rounded-lg bg-gold-400 px-3 py-2 text-sm font-semibold text-brand-900 hover:bg-gold-300"
              >
                {editMode.enabled ? 'Exit Edit' : 'Edit Site'}
              </button>
            ) : undefined
          }
        />
        <main id="main" className="flex-1 pt-16">
          {loadingDashboard ? (
            <div className="flex flex-col items-center justify-center gap-4 py-32" role="status">
              <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-800" aria-hidden="true" />
              <p className="text-gray-600">Loading dashboard...</p>
            </div>
          ) : (
            <Outlet />
          )}
        </main>
        <SiteFooter footerText={root?.footerText ?? {}} />
      </div>
    </EditModeContext.Provider>
  );
}
