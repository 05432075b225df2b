import { useEffect } from 'react';
import {
  type ShouldRevalidateFunctionArgs,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from 'react-router';
import { Toaster } from 'sonner';
import { requestServicesContext } from '#request-context';
import type { ContentData } from '../common/content-sections.ts';
import type { Route } from './+types/root';
import './app.css';

export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(requestServicesContext);
  const footer = await services.api<{ data: ContentData }>('/api/content/footer_text');
  return {
    viewer: services.viewer,
    footerText: footer.ok && footer.data?.data ? footer.data.data : {},
  };
}

// Signing in or up happens on these pages; leaving them must refresh who the viewer is.
const VIEWER_CHANGING_PATHS = new Set(['/login', '/signup', '/admin/login']);

export function shouldRevalidate({ currentUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return VIEWER_CHANGING_PATHS.has(currentUrl.pathname) || defaultShouldRevalidate;
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/** The root loader's data (viewer and footer text), from any route. */
export function useRootData(): RootLoaderData | undefined {
  return useRouteLoaderData<RootLoaderData>('root');
}

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#7f1d1d" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {/* SPEC 2: the toast area sits at the top centre of every screen. */}
        <Toaster position="top-center" richColors />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  useEffect(() => {
    // Marks the page as interactive; browser tests wait for it before clicking.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-brand-800">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="mt-4 text-gray-600">{notFound ? 'The page you are looking for does not exist.' : 'Please try again in a moment.'}</p>
      <a href="/" className="mt-8 inline-block rounded-lg bg-brand-800 px-6 py-3 font-semibold text-white">
        Back to Home
      </a>
    </main>
  );
}
