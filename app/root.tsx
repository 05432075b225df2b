import { lazy, Suspense, useContext, useEffect, useState } from 'react';
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router';
import { toast, Toaster } from './lib/toast.tsx';
import { publicViewer } from '../common/viewer.ts';
import { mayEditPageTexts } from '../common/policies.ts';
import { buttonClass } from './components/ui/button.tsx';
import { useNonce } from './lib/nonce.tsx';
import { PlainPage } from './lib/plain-page.tsx';
import { SiteStyles } from './lib/site-styles.tsx';
import { orFallback, pageContent, pageServices, pageSession } from './lib/page-context.ts';
import { FAILURE_ATTRIBUTES } from '../common/page-failure.ts';
import { unlessRequestFailed } from './lib/forms.ts';
import type { Route } from './+types/root';
import stylesheet from './app.css?url';
import displayFont from './fonts/plus-jakarta-sans-basic-latin.woff2?url';
import textFont from './fonts/inter-basic-latin.woff2?url';

// A member's device upkeep, loaded for members alone.
const MemberUpkeep = lazy(() => import('./lib/member-upkeep.tsx'));

// A page whose form request failed keeps its data (see unlessRequestFailed).
export const shouldRevalidate = unlessRequestFailed;

export async function loader({ context }: Route.LoaderArgs) {
  const { services, viewer } = pageServices(context);
  const [footerText, mobileApp, unreadNotifications] = await Promise.all([
    pageContent(services, 'footer_text', 'the footer text'),
    pageContent(services, 'mobile_app', 'the app store links'),
    // The bell's count, for a signed-in member.
    viewer.member ? orFallback(services.notifications.unread(viewer), 0, 'your notifications') : 0,
  ]);
  return {
    viewer: publicViewer(viewer),
    footerText,
    mobileApp,
    unreadNotifications,
    // Whether the pages' edit mode is theirs: decided here, so the rule's code stays on the server.
    editsTexts: mayEditPageTexts(viewer),
    // A toast an action left for the page it redirected to (after sign-in, sign-up, ...).
    flash: pageSession(context).takeFlash(),
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const plainPage = useContext(PlainPage);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#7f1d1d" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The installed app (PWA): public/manifest.webmanifest and public/sw.js. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <meta name="apple-mobile-web-app-title" content="RealtyPocket" />
        <Meta />
        <SiteStyles href={stylesheet} />
        <link rel="preload" href={displayFont} as="font" type="font/woff2" crossOrigin="anonymous" />
        <link rel="preload" href={textFont} as="font" type="font/woff2" crossOrigin="anonymous" />
        <Links />
      </head>
      <body>
        {children}
        {/* SPEC 2: the toast area sits at the top centre of every screen. */}
        {/* Top centre (SPEC), but below the fixed 64 px nav: a toast never covers the menu button or the links. */}
        <Toaster position="top-center" richColors offset={{ top: 76 }} mobileOffset={{ top: 72 }} />
        {plainPage ? (
          // A visitor's plain page: its one small script instead of the app (docs/decisions/027).
          // Its service worker is the app's, and like the app's not in development (app/lib/service-worker.ts).
          <script src={plainPage.script} defer data-service-worker={import.meta.env.PROD ? '/sw.js' : undefined} />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { flash, viewer } = loaderData;
  // Whoever is signed in (their email names them), or null for a visitor.
  const memberId = viewer.member?.email ?? null;
  useEffect(() => {
    // Marks the page as interactive; browser tests wait for it before clicking.
    document.documentElement.dataset.hydrated = 'true';
    void import('./lib/service-worker.ts').then((app) => app.startInstalledApp(memberId));
  }, [memberId]);
  useEffect(() => {
    if (flash) toast[flash.type](flash.message);
  }, [flash]);
  return (
    <>
      <Outlet />
      {viewer.member && (
        <Suspense fallback={null}>
          <MemberUpkeep tier={viewer.member.membership_tier} knowsZone={viewer.member.time_zone !== null} />
        </Suspense>
      )}
    </>
  );
}

/**
 * What the server wrote into an error page it sent (a neighbour away, the request's reference), read
 * back as the page comes alive so the browser shows the same text; null while rendering on the server.
 */
function textFromServer(attribute: string): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector(`[${attribute}]`)?.textContent || null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // Filled in by the server (server/pages/pages.plugin.ts) when the page failed on its side.
  const [heading] = useState(() => textFromServer(FAILURE_ATTRIBUTES.heading) ?? (notFound ? 'Page not found' : 'Something went wrong'));
  const [detail] = useState(
    () =>
      textFromServer(FAILURE_ATTRIBUTES.detail) ??
      (notFound ? 'The page you are looking for does not exist.' : 'Please try again in a moment.'),
  );
  const [reference] = useState(() => textFromServer(FAILURE_ATTRIBUTES.reference) ?? '');
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-brand-800" {...{ [FAILURE_ATTRIBUTES.heading]: '' }}>
        {heading}
      </h1>
      <p className="mt-4 text-gray-600" {...{ [FAILURE_ATTRIBUTES.detail]: '' }}>
        {detail}
      </p>
      <p className="mt-2 text-sm text-gray-500" {...{ [FAILURE_ATTRIBUTES.reference]: '' }}>
        {reference}
      </p>
      <a href="/" className={buttonClass({ className: 'mt-8' })}>
        Back to Home
      </a>
    </main>
  );
}
