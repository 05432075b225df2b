import { describe, expect, it } from 'vitest';
import {
  budgetProblems,
  measureRoutes,
  pageRoutes,
  parseBrowserManifest,
  roundedUpBudget,
  routeFiles,
  staticImports,
  type BrowserManifest,
} from './js-budget.ts';

// A build's manifest in small: root > site layout > home (index) and about; admin > its index tab
// and a files tab; a resource route (logout) with no component.
const manifest: BrowserManifest = {
  entry: { module: '/assets/entry.js', imports: ['/assets/runtime.js', '/assets/shell.js'] },
  routes: {
    root: { id: 'root', path: '', hasDefaultExport: true, module: '/assets/root.js', imports: ['/assets/shell.js'] },
    layout: { id: 'layout', parentId: 'root', hasDefaultExport: true, module: '/assets/layout.js', imports: ['/assets/shell.js'] },
    home: {
      id: 'home',
      parentId: 'layout',
      index: true,
      module: '/assets/home.js',
      imports: ['/assets/shell.js', '/assets/home-parts.js'],
    },
    about: { id: 'about', parentId: 'layout', path: 'about', module: '/assets/about.js', imports: ['/assets/shell.js'] },
    logout: { id: 'logout', parentId: 'root', path: 'logout', hasDefaultExport: false, module: '/assets/logout.js' },
    admin: { id: 'admin', parentId: 'root', path: 'admin', module: '/assets/admin.js', imports: ['/assets/shell.js', '/assets/zod.js'] },
    'admin-index': { id: 'admin-index', parentId: 'admin', index: true, module: '/assets/tab.js' },
    'admin-files': { id: 'admin-files', parentId: 'admin', path: 'files', module: '/assets/files.js' },
  },
};

describe('the JavaScript budget', () => {
  it("reads React Router's browser manifest", () => {
    const source = `window.__reactRouterManifest=${JSON.stringify(manifest)};`;
    expect(parseBrowserManifest(source)).toEqual(manifest);
    expect(() => parseBrowserManifest('export default {}')).toThrow(/not a React Router browser manifest/);
  });

  it('counts the pages a browser opens: no pathless layout, no parent shown through its index, no resource route', () => {
    expect(pageRoutes(manifest).sort()).toEqual(['about', 'admin-files', 'admin-index', 'home']);
  });

  it('counts a parent with a path as a page when no index child stands in for it', () => {
    const withoutIndex: BrowserManifest = {
      ...manifest,
      routes: Object.fromEntries(Object.entries(manifest.routes).filter(([id]) => id !== 'admin-index')),
    };
    expect(pageRoutes(withoutIndex).sort()).toEqual(['about', 'admin', 'admin-files', 'home']);
  });

  it('finds the static imports of a built module, not its lazy ones', () => {
    const code =
      'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/lazy-a.js"])))=>i.map(i=>d[i]);\n' +
      'import{a as e,t}from"./runtime.js";import"./side-effect.js";var n=1;export{x as y}from"./re-export.js";' +
      'const l=()=>import("./lazy-b.js");export{n as t};';
    expect(staticImports(code).sort()).toEqual(['./re-export.js', './runtime.js', './side-effect.js']);
  });

  it('adds up the entry, each route down to the page and everything those import, each file once', () => {
    const imports: Record<string, string[]> = { '/assets/home-parts.js': ['/assets/images.js', '/assets/shell.js'] };
    expect(routeFiles(manifest, 'home', (file) => imports[file] ?? [])).toEqual([
      '/assets/entry.js',
      '/assets/home-parts.js',
      '/assets/home.js',
      '/assets/images.js',
      '/assets/layout.js',
      '/assets/root.js',
      '/assets/runtime.js',
      '/assets/shell.js',
    ]);
    expect(routeFiles(manifest, 'admin-files')).toContain('/assets/zod.js');
    expect(routeFiles(manifest, 'home')).not.toContain('/assets/zod.js');
    expect(() => routeFiles(manifest, 'missing')).toThrow(/not in the manifest/);
  });

  it('weighs each page at the size its files are sent', () => {
    const sizes: Record<string, number> = { '/assets/shell.js': 90_000, '/assets/home-parts.js': 4_000, '/assets/zod.js': 21_000 };
    const measured = measureRoutes(manifest, (file) => sizes[file] ?? 100);
    const bytes = Object.fromEntries(measured.map(({ route, bytes }) => [route, bytes]));
    // Entry, runtime, root, then layout and home (or admin and its tab) at 100 each, with the shell and the rest.
    expect(bytes.home).toBe(5 * 100 + 90_000 + 4_000);
    expect(bytes['admin-files']).toBe(5 * 100 + 90_000 + 21_000);
  });

  it('sets a budget at the measured size rounded up to the next 5 KB', () => {
    expect(roundedUpBudget(104.8 * 1024)).toBe(105);
    expect(roundedUpBudget(105 * 1024)).toBe(105);
    expect(roundedUpBudget(105 * 1024 + 1)).toBe(110);
    expect(roundedUpBudget(300)).toBe(5);
  });

  it('names each page over its budget, each page without one and each budget for no page', () => {
    const measured = [
      { route: 'home', files: [], bytes: 92 * 1024 },
      { route: 'about', files: [], bytes: 80 * 1024 },
      { route: 'admin-files', files: [], bytes: 111 * 1024 },
    ];
    const budgets = { public: { home: 90, about: 80, gone: 100 }, staff: {} };
    expect(budgetProblems(measured, budgets, 'budgets.json')).toEqual([
      'route home: 92.0 KB of JavaScript, over its budget of 90 KB (budgets.json)',
      'route admin-files: 111.0 KB of JavaScript and no budget; add one to budgets.json (115 KB)',
      'route gone has a budget in budgets.json but is no page of the build; remove it',
    ]);
    expect(budgetProblems(measured.slice(0, 2), { public: { home: 95, about: 80 } })).toEqual([]);
  });
});
