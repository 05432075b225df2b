import module from 'node:module';

// Production entry: `node server/main.ts` (Node 24 runs TypeScript directly). The compile cache
// keeps each module's stripped and compiled code between starts, a third of the time spent loading
// the server's 1,500 modules; `npm run build` fills it (scripts/prepare-start.ts). It is enabled
// before anything else is imported, so the whole server is read through it.
module.enableCompileCache?.(new URL('../node_modules/.cache/compile', import.meta.url).pathname);
await import('./serve.ts');
