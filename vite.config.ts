import { fastifyReactRouterDev } from '@mcansh/react-router-fastify/vite';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// What every page of the site loads, as one file: React, React Router and the site's own shell
// (toasts, the layout's building blocks, the editable texts). Brotli starts afresh on each file, so
// one file is smaller than the dozen small ones the automatic split makes of them.
// Only what a visitor's pages use belongs here: a module here brings every module it imports into
// this file too, whoever else uses them (so the nav and the images import common/limits-every-page.ts,
// not all of common/limits.ts). What only members or staff use (the nav's signed-in actions, edit
// mode) is loaded lazily, for them alone. scripts/check-js-budget.ts holds each page to its budget.
const SHELL = [
  /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
  /[\\/]app[\\/]lib[\\/](toast\.tsx|forms\.ts|meta\.ts|root-data\.ts|responsive-image\.ts)$/,
  /[\\/]app[\\/]components[\\/](ui[\\/]button|ui[\\/]card|editable[\\/]editable-text)\.tsx$/,
  // The layout every page sits in: nav, footer and the app's install buttons.
  /[\\/]app[\\/]components[\\/](layout[\\/]site-(nav|footer)|app-install[\\/]install-app)\.tsx$/,
  /[\\/]common[\\/]brand\.ts$/,
  /preload-helper\.js$/,
];

// The home page's parts that other pages share too (so the automatic split makes each its own
// file): one file for the home page's first load, at the cost of a few KB on the pages that use one.
const HOME_PARTS = [
  /[\\/]app[\\/]components[\\/](podcast[\\/]episode-card|ui[\\/]portrait|ui[\\/]accordion|pricing[\\/]plan-cards|home[\\/]home-content)\.tsx?$/,
  /[\\/]common[\\/]pricing\.ts$/,
];

export default defineConfig({
  build: {
    rolldownOptions: {
      // Building a zod schema has no side effects: a page that uses only the plain constants of a
      // contract module (tier names, limits) then ships without zod.
      // And nothing in common/ does anything when it is imported (contracts, rules, constants): a page
      // whose loader or action alone used a contract (stripped from the browser's build) does not
      // load the contract, nor zod, to run it for nothing.
      treeshake: { manualPureFunctions: ['z'], moduleSideEffects: (id: string) => !/[\\/]common[\\/][^\\/]+\.ts$/.test(id) },
      output: {
        codeSplitting: {
          groups: [
            { name: 'shell', test: (id: string) => SHELL.some((pattern) => pattern.test(id)) },
            { name: 'home-parts', test: (id: string) => HOME_PARTS.some((pattern) => pattern.test(id)) },
          ],
        },
      },
    },
  },
  plugins: [
    tailwindcss(),
    reactRouter(),
    fastifyReactRouterDev({
      entry: './server/dev-server.ts',
      // The server fills this context per request; the built pages must import the very same module.
      externalizeServerEntryImports: ['#request-context'],
    }),
  ],
});
