import { enableCompileCache, resolveDrizzleQuickly } from './module-loading.ts';

// Production entry: `node server/main.ts` (Node 24 runs TypeScript directly). Module loading is set
// up first (server/module-loading.ts), then the server is imported through it.
enableCompileCache();
resolveDrizzleQuickly();
await import('./serve.ts');
