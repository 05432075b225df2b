import { redirect, type RouterContextProvider } from 'react-router';
import { pageSessionContext, servicesContext, viewerContext } from '#request-context';

type Context = Readonly<RouterContextProvider>;

/** The feature services and the viewer of this request, for a loader or an action. */
export function pageServices(context: Context) {
  return { services: context.get(servicesContext), viewer: context.get(viewerContext) };
}

/** Starting and ending the session of this request, and flash messages. */
export function pageSession(context: Context) {
  return context.get(pageSessionContext);
}

/**
 * SPEC 8: when a list or a content section cannot be loaded, the failure is logged only and the
 * page shows its empty state or its defaults.
 */
export async function orFallback<T, F = T>(work: Promise<T>, fallback: F, what: string): Promise<T | F> {
  try {
    return await work;
  } catch (error) {
    console.warn(`Could not load ${what}:`, error instanceof Error ? error.message : error);
    return fallback;
  }
}

/** Login and signup send a member who is already signed in straight to the dashboard. */
export function redirectSignedInMember(context: Context): null {
  if (context.get(viewerContext).member) throw redirect('/dashboard');
  return null;
}

/** The admin pages are for staff only: anyone else goes to /admin/login (checked on the server). */
export function staffPageServices(context: Context) {
  const page = pageServices(context);
  if (!page.viewer.staff) throw redirect('/admin/login');
  return page;
}
