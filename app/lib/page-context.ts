import { redirect, type RouterContextProvider } from 'react-router';
import { COMMUNITY_LIST_KEY, keptPageDiscussionsContext, pageSessionContext, servicesContext, viewerContext } from '#request-context';
import { withContentDefaults, type ContentFields, type ContentSectionKey } from '../../common/content-sections.ts';
import { BeforeQuery } from '../../common/paging.ts';

type Context = Readonly<RouterContextProvider>;
type Services = ReturnType<typeof pageServices>['services'];

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

/**
 * A content section for a page, with its defaults filled in (SPEC 4), also when the read failed.
 * Done in loaders, on the server: the default texts of every section never ship to the browser.
 */
export async function pageContent<K extends ContentSectionKey>(services: Services, key: K, what: string): Promise<ContentFields<K>> {
  return withContentDefaults(key, await orFallback(services.content.get(key), {}, what));
}

/** Login and signup send a member who is already signed in straight to the dashboard. */
export function redirectSignedInMember(context: Context): null {
  if (context.get(viewerContext).member) throw redirect('/dashboard');
  return null;
}

/** The staff sign-in sends staff who are already signed in straight to the admin dashboard. */
export function redirectSignedInStaff(context: Context): null {
  if (context.get(viewerContext).staff) throw redirect('/admin/dashboard');
  return null;
}

/** A member's own pages are for signed-in members only: anyone else goes to /login (checked on the server). */
export function memberPageServices(context: Context) {
  const page = pageServices(context);
  if (!page.viewer.member) throw redirect('/login');
  return { ...page, member: page.viewer.member };
}

/** The admin pages are for staff only: anyone else goes to /admin/login (checked on the server). */
export function staffPageServices(context: Context) {
  const page = pageServices(context);
  if (!page.viewer.staff) throw redirect('/admin/login');
  return { ...page, staff: page.viewer.staff };
}

/** The page of a list this address asks for (`?before=`); a broken link shows the first page. */
export function listPageOf(request: Request): BeforeQuery {
  const asked = BeforeQuery.safeParse({ before: new URL(request.url).searchParams.get('before') ?? undefined });
  return asked.success ? asked.data : {};
}

/**
 * On a member's page that is kept (server/pages/pages.plugin.ts): the community discussions it shows,
 * and that it shows their list or count. The page is kept while those hold (keptPageDiscussionsContext).
 */
export function showsDiscussions(context: Context, ids: Iterable<string>): void {
  const shown = context.get(keptPageDiscussionsContext);
  if (!shown) return;
  shown.add(COMMUNITY_LIST_KEY);
  for (const id of ids) shown.add(id);
}
