import { useEffect, useMemo, useState, useSyncExternalStore, type ComponentType } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { EditModeContext, loadTextEditor, type EditableTextProps } from '../editable/editable-text.tsx';
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

// Edit mode stays on for the tab until staff switch it off: through the reload that follows each
// in-place save (SPEC 4) and from page to page.
const EDIT_MODE_KEY = 'edit-mode';
const editModeListeners = new Set<() => void>();
const editModeStore = {
  subscribe(listener: () => void) {
    editModeListeners.add(listener);
    return () => editModeListeners.delete(listener);
  },
  get(): boolean {
    try {
      return sessionStorage.getItem(EDIT_MODE_KEY) === 'on';
    } catch {
      return false;
    }
  },
  set(on: boolean) {
    try {
      if (on) sessionStorage.setItem(EDIT_MODE_KEY, 'on');
      else sessionStorage.removeItem(EDIT_MODE_KEY);
    } catch {
      // Storage refused (a private window): edit mode still works, for this page.
    }
    editModeListeners.forEach((listener) => listener());
  },
};

/** SPEC 2 Shared layout: fixed nav, the page, the footer. */
export default function SiteLayout() {
  const root = useRootData();
  const viewer = root?.viewer ?? { member: null, staff: null };
  // SPEC 4: edit mode is off by default and only staff can switch it on.
  const editing = useSyncExternalStore(editModeStore.subscribe, editModeStore.get, () => false);
  // Loaded as soon as staff open a page, so it is there when they switch edit mode on.
  const [Editor, setEditor] = useState<ComponentType<EditableTextProps>>();
  // Decided by the root loader (common/policies.ts), on the server.
  const editsTexts = root?.editsTexts ?? false;
  useEffect(() => {
    if (editsTexts) void loadTextEditor().then((loaded) => setEditor(() => loaded));
  }, [editsTexts]);
  const editMode = useMemo(
    () => ({
      enabled: editing && editsTexts && Editor !== undefined,
      toggle: () => editModeStore.set(!editing),
      Editor,
    }),
    [editing, editsTexts, Editor],
  );
  const loadingText = useLoadingText();
  return (
    <EditModeContext.Provider value={editMode}>
      <div className="flex min-h-screen flex-col">
        <SiteNav viewer={viewer} unread={root?.unreadNotifications ?? 0} editMode={editsTexts ? editMode : undefined} />
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
    </EditModeContext.Provider>
  );
}
