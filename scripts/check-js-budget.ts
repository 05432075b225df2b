import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  BUDGETS_FILE,
  budgetProblems,
  budgetsByRoute,
  KB,
  measureRoutes,
  parseBrowserManifest,
  staticImports,
  type Budgets,
} from './js-budget.ts';

// A step of `npm run build`, after scripts/precompress.ts and before the start's preparation (a page
// over its budget fails the build at once): the JavaScript a browser downloads to open each page, as
// the server sends it, against the page's budget. A page over its budget, or one without a budget,
// fails the build (exit 1) with a line naming the route, its size and its budget.
//
// A page's JavaScript is what its module preloads list (the page's starter adds them after the first
// paint, app/lib/scripts-after-paint.server.ts; bench/run.ts measures the home page's that way): the client entry, then each route from the root down to the page, its
// module and the modules it imports (React Router's browser manifest), and whatever those import in
// turn. Lazy `import()`s (the toasts, staff's edit mode, a member's nav) load later, and only for
// those who need them. Each file counts at the size the server sends with `Accept-Encoding: br`: its
// brotli copy (scripts/precompress.ts), or a small file compressed as it goes out.
//
// The budgets live in scripts/js-budgets.json, beside this script: they are numbers of the build,
// per route, that only this script and the bench read. common/limits.ts holds the product's
// numbers, which the pages and the server import; sixty route budgets do not belong in the code
// every page is built from. A budget is the page's measured size rounded up to the next 5 KB when
// it was set: a page over it is to be made lighter, not given a bigger budget.
const root = path.resolve(import.meta.dirname, '..');
const client = path.join(root, 'build/client');

const manifestFile = fs.readdirSync(path.join(client, 'assets')).find((name) => /^manifest-[\w-]+\.js$/.test(name));
if (!manifestFile) {
  console.error('JavaScript budget: no React Router manifest in build/client/assets; run `react-router build` first');
  process.exit(1);
}
const manifest = parseBrowserManifest(fs.readFileSync(path.join(client, 'assets', manifestFile), 'utf8'));

const localFile = (url: string) => path.join(client, url);
// A file too small for a brotli copy is compressed as it goes out, by @fastify/compress at its
// default quality (server/app.ts keeps it).
const ON_THE_FLY = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const sentBytes = (url: string) => {
  const brotli = `${localFile(url)}.br`;
  if (fs.existsSync(brotli)) return fs.statSync(brotli).size;
  return zlib.brotliCompressSync(fs.readFileSync(localFile(url)), ON_THE_FLY).length;
};
const importsOf = (url: string) =>
  staticImports(fs.readFileSync(localFile(url), 'utf8'))
    .filter((specifier) => specifier.startsWith('.') || specifier.startsWith('/'))
    .map((specifier) => new URL(specifier, `http://site${url}`).pathname);

const budgets = JSON.parse(fs.readFileSync(path.join(root, BUDGETS_FILE), 'utf8')) as Budgets;
const measured = measureRoutes(manifest, sentBytes, importsOf);
const budgetOf = budgetsByRoute(budgets);
const width = Math.max(...measured.map(({ route }) => route.length));
for (const { route, bytes } of [...measured].sort((a, b) => b.bytes - a.bytes)) {
  const budget = budgetOf.get(route);
  console.log(
    `  ${route.padEnd(width)}  ${(bytes / KB).toFixed(1).padStart(6)} KB  budget ${budget === undefined ? 'none' : `${budget} KB`}`,
  );
}
const problems = budgetProblems(measured, budgets);
if (problems.length > 0) {
  console.error(`JavaScript budget exceeded:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(`JavaScript budget: ${measured.length} pages within their budgets (brotli, as sent)`);
