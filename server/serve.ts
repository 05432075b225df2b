import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseLockedError } from '../db/lock.ts';
import { loggableError } from './loggable-error.ts';
import { drainAndClose } from './http/lifecycle.ts';
import { prepareServer, StartSteps } from './runtime.ts';

// The server process (server/main.ts starts it): configuration, start, listening, and a clean stop.
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const steps = new StartSteps();
  const { app, announceStart } = await prepareServer(config, { steps });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received: finishing open requests, then closing the database`);
    // The grace for requests, then a few seconds for the mail worker and the database.
    const forceExit = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    forceExit.unref();
    try {
      await drainAndClose(app, config.shutdownGraceMs);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  // A promise nobody waited for must not take every member's requests down with it: logged, and the process goes on.
  process.on('unhandledRejection', (reason) =>
    app.log.error({ err: loggableError(reason) }, 'a promise failed with nobody waiting for it'),
  );
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  steps.done('listening');
  const { port } = app.server.address() as AddressInfo;
  // PORT=0 took a free port: the site's own links name it (PUBLIC_URL, when set, is the origin instead).
  if (config.port === 0 && !process.env.PUBLIC_URL) config.publicUrl = `http://${hostInUrl(config.host)}:${port}`;
  announceStart();
  // Redis and Stripe's prices are waited for after listening, a few seconds at most: /livez answers
  // meanwhile and /readyz says 'starting'.
  await app.startup.finished;
  steps.done('ready');
  const started = { url: `http://${hostInUrl(config.host)}:${port}`, startMs: { ...steps.steps, total: steps.totalMs } };
  // Once per start: where its time went, and where it listens.
  app.log.info(started, `started in ${steps.totalMs} ms`);
  // A parent process (tests, the bench, a process manager) that opened an IPC channel is told the
  // port and that the site is ready: no port to guess beforehand, no polling against a deadline.
  process.send?.({ event: 'ready', port, ...started });
}

/** A listening address as it goes in a URL: IPv6 in brackets, any-address as loopback. */
function hostInUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    console.error(`Port is already in use: ${(error as Error).message}. Set PORT to a free port.`);
  } else {
    console.error('The server could not start:', error);
  }
  process.exit(1);
});
