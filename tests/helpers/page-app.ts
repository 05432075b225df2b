import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createServer, isRunnableDevEnvironment } from 'vite';
import type { TestApp } from './test-app.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface PageApp {
  /** The whole site, pages included, on the test app's database, settings and files: call it with `inject`. */
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The site with its server-rendered pages, as `npm run dev` serves them (Vite renders each page from
 * app/, no build needed), beside a test app and on its database. The server is loaded through Vite as
 * the pages are, so both share one request context (#request-context), as in development.
 */
export async function startPageApp(t: TestApp): Promise<PageApp> {
  // Vite's caches go to a directory of this app's own, never into the work tree's node_modules.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-vite-'));
  const vite = await createServer({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    cacheDir,
    logLevel: 'error',
    appType: 'custom',
    // No web socket: files run in parallel workers, and each would take Vite's fixed port (24678).
    server: { middlewareMode: true, hmr: false, watch: null, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const ssr = vite.environments.ssr;
    if (!isRunnableDevEnvironment(ssr)) throw new Error('Vite has no runnable server environment');
    const { buildApp } = (await ssr.runner.import(path.join(root, 'server/app.ts'))) as typeof import('../../server/app.ts');
    const { LocalDiskStorage } = (await ssr.runner.import(
      path.join(root, 'server/files/storage.ts'),
    )) as typeof import('../../server/files/storage.ts');
    const app = await buildApp({
      config: t.config,
      // The test app owns the database and closes it.
      database: { ...t.database, close: async () => {} },
      storage: new LocalDiskStorage(path.join(t.dataDir, 'uploads')),
      pages: { devServer: vite },
      logger: false,
      mailTiming: { pollMs: 200, retryBaseMs: 200 },
      // As the test app it serves: the lifecycle tests send those mails themselves.
      lifecycleMail: false,
    });
    await app.ready();
    return {
      app,
      async close() {
        await app.close();
        await vite.close();
        fs.rmSync(cacheDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await vite.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    throw error;
  }
}
