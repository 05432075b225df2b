import { createContext, type ComponentType } from 'react';
import type { Platform } from '../components/app-install/install-steps.tsx';

// A page a visitor reads plainly: server-rendered HTML and one small script
// (public/page-enhancer.js) for its menu, FAQ, install steps and broken images; no React, no router
// (docs/decisions/027). Whoever is signed in, or has a toast to see, gets the app as on any page.

/**
 * A route's `handle` saying its page works for a visitor without the app: `export const handle =
 * { plainForVisitors: true } satisfies PlainPageHandle` (written out in each route, so the code
 * every page loads carries nothing of it).
 */
export interface PlainPageHandle {
  plainForVisitors?: boolean;
}

/** What a plain page is rendered with, by the server (app/entry.server.tsx). */
export interface PlainPageParts {
  /** The address of its small script. */
  script: string;
  /**
   * The app-install steps, written into the page closed: given by the server so the page needs no
   * suspense (whose reveal takes scripts) and the browser's code stays without them.
   */
  InstallSteps: ComponentType<{ platform: Platform }>;
}

/**
 * On a plain page, its parts; null on a page that runs the app (and always in the browser, where
 * only such pages run). Read with useContext.
 */
export const PlainPage = createContext<PlainPageParts | null>(null);
