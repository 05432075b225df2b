import { useRouteLoaderData } from 'react-router';
import type { Route } from '../+types/root';

/**
 * What the root loader gives every page: who is signed in, the footer texts, the app's store links,
 * the bell's count of unread notifications, and a toast left by the last action.
 */
export type RootData = Route.ComponentProps['loaderData'];

/** The root loader's data, from any route or component. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>('root');
}
