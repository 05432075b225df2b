import { ConfigError, loadConfig, type Config } from './config.ts';
import { DatabaseLockedError } from '../db/lock.ts';
import { loggableError } from './loggable-error.ts';
import { drainAndClose } from './http/lifecycle.ts';
import { prepareServer } from './runtime.ts';

// Production entry: `node server/main.ts` (Node 24 runs TypeScript directly).
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

  const { app } = await prepareServer(config);

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
