import type { ViteDevServer } from 'vite';
import { loadConfig } from './config.ts';
import { prepareServer } from './runtime.ts';

// Used by `react-router dev` through the Fastify Vite plugin: the same server, with hot reloading pages.
export async function createServer(devServer?: ViteDevServer) {
  const config = loadConfig({ NODE_ENV: 'development', ...process.env });
  const { app, announceStart } = await prepareServer(config, { devServer });
  announceStart();
  return app;
}
