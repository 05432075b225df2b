// The pure part of scripts/check-js-budget.ts: which files a page's JavaScript is, what they weigh
// and which pages are over their budget. No file system here, so the unit test feeds it plain data.

/** React Router's browser manifest (build/client/assets/manifest-*.js), the fields used here. */
export interface BrowserManifest {
  entry: { module: string; imports: string[] };
  routes: Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean; hasDefaultExport?: boolean; module: string; imports?: string[] }
  >;
}

/** A route's JavaScript: the files the browser downloads to open it, and their size as sent. */
export interface RouteJavaScript {
  route: string;
  files: string[];
  bytes: number;
}

/** Budgets per route id, in KB (1,024 bytes), grouped by who opens the page (public, member, staff). */
export type Budgets = Record<string, Record<string, number>>;

/** Where the budgets are, from the repository's root (why there: scripts/check-js-budget.ts). */
export const BUDGETS_FILE = 'scripts/js-budgets.json';

/** Each route's budget in KB, whichever group it is in. */
export function budgetsByRoute(budgets: Budgets): Map<string, number> {
  return new Map(Object.values(budgets).flatMap((group) => Object.entries(group)));
}

const MANIFEST_PREFIX = 'window.__reactRouterManifest=';

/** The manifest React Router writes for the browser: `window.__reactRouterManifest={...};`. */
export function parseBrowserManifest(source: string): BrowserManifest {
  const text = source.trim();
  if (!text.startsWith(MANIFEST_PREFIX)) throw new Error('not a React Router browser manifest');
  return JSON.parse(text.slice(MANIFEST_PREFIX.length).replace(/;$/, '')) as BrowserManifest;
}

/**
 * The routes a browser can open as a page: a route with no child, or one with a path but no index
 * child (its own URL shows it alone). A pathless layout (root, the site layout) or a parent whose
 * URL opens its index child is counted within its children; a resource route (no component: logout,
 * a notification's redirect) is no page at all.
 */
export function pageRoutes(manifest: BrowserManifest): string[] {
  const routes = Object.values(manifest.routes);
  return routes
    .filter((route) => {
      if (route.hasDefaultExport === false) return false;
      const children = routes.filter((child) => child.parentId === route.id);
      if (children.length === 0) return true;
      return Boolean(route.path) && !children.some((child) => child.index);
    })
    .map((route) => route.id);
}

/**
 * The static import lines of an ES module as the build writes them (`import{a as b}from"./x.js"`,
 * `import"./y.js"`); dynamic `import()`s load later, on demand, and are not part of a page's first load.
 */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']/g)) {
    found.add(match[1]!);
  }
  return [...found];
}

/**
 * The files the browser downloads to open a route, as the page's module preloads list them: the
 * client entry and every route from the root down to it, each module with its
 * imports; then whatever those files import in turn (`importsOf`, for a file's static imports as
 * URLs), so nothing the browser fetches before the page runs is missed.
 */
export function routeFiles(manifest: BrowserManifest, routeId: string, importsOf: (file: string) => string[] = () => []): string[] {
  const chain: string[] = [];
  for (let id: string | undefined = routeId; id !== undefined; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`route ${id} is not in the manifest`);
    chain.unshift(id);
  }
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of chain) {
    const route = manifest.routes[id]!;
    files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  }
  const queue = [...files];
  while (queue.length > 0) {
    for (const file of importsOf(queue.pop()!)) {
      if (files.has(file)) continue;
      files.add(file);
      queue.push(file);
    }
  }
  return [...files].sort();
}

/** Every page route's JavaScript, as sent (`sentBytes`: a file's size as the server sends it). */
export function measureRoutes(
  manifest: BrowserManifest,
  sentBytes: (file: string) => number,
  importsOf?: (file: string) => string[],
): RouteJavaScript[] {
  return pageRoutes(manifest).map((route) => {
    const files = routeFiles(manifest, route, importsOf);
    return { route, files, bytes: files.reduce((sum, file) => sum + sentBytes(file), 0) };
  });
}

export const KB = 1024;

/** A budget set honestly: the measured size rounded up to the next 5 KB. */
export function roundedUpBudget(bytes: number): number {
  return Math.max(5, Math.ceil(bytes / KB / 5) * 5);
}

/**
 * What is wrong, one line each: a page over its budget, a page with no budget, a budget for a route
 * that no longer exists. Empty when every page is within its budget.
 */
export function budgetProblems(measured: RouteJavaScript[], budgets: Budgets, budgetsFile = BUDGETS_FILE): string[] {
  const flat = budgetsByRoute(budgets);
  const problems: string[] = [];
  for (const { route, bytes } of measured) {
    const budget = flat.get(route);
    const size = `${(bytes / KB).toFixed(1)} KB`;
    if (budget === undefined) {
      problems.push(`route ${route}: ${size} of JavaScript and no budget; add one to ${budgetsFile} (${roundedUpBudget(bytes)} KB)`);
    } else if (bytes > budget * KB) {
      problems.push(`route ${route}: ${size} of JavaScript, over its budget of ${budget} KB (${budgetsFile})`);
    }
  }
  const pages = new Set(measured.map(({ route }) => route));
  for (const route of flat.keys()) {
    if (!pages.has(route)) problems.push(`route ${route} has a budget in ${budgetsFile} but is no page of the build; remove it`);
  }
  return problems;
}
