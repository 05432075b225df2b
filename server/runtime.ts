import type { FastifyInstance } from 'fastify';
import type { ViteDevServer } from 'vite';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { moveDemoMediaIntoFileStore, seedDemoCatalogue } from '../db/seed/seed.ts';
import { buildApp } from './app.ts';
import { startControlSocket } from './backup/control-socket.ts';
import type { Config } from './config.ts';
import { createStorage } from './files/create-storage.ts';
import { loggableError } from './loggable-error.ts';
import { ensureFirstStaffAccount } from './staff/bootstrap.ts';

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else embedded under DATA_DIR. */
export function openConfiguredDatabase(config: Config, purpose: string): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl, timeouts: config.database })
    : openDatabase({ kind: 'embedded', dataDir: config.dataDir, purpose });
}

/**
 * How long each step of a start took, in ms from the moment the process started (so the first step
 * counts loading the modules too); the server logs them once it listens.
 */
export class StartSteps {
  readonly steps: Record<string, number> = {};
  private last = 0;

  done(step: string): void {
    const now = performance.now();
    this.steps[step] = Math.round(now - this.last);
    this.last = now;
  }

  get totalMs(): number {
    return Math.round(performance.now());
  }
}

/** Everything a start needs: database migrated, first staff account, demo catalogue, then the app. */
export async function prepareServer(
  config: Config,
  options: { devServer?: ViteDevServer; announce?: (line: string) => void; steps?: StartSteps } = {},
): Promise<{ app: FastifyInstance; database: DatabaseHandle; announceStart: () => void }> {
  const announce = options.announce ?? ((line: string) => console.log(line));
  const steps = options.steps ?? new StartSteps();
  steps.done('modules_loaded');
  const database = await openConfiguredDatabase(config, `server on port ${config.port}`);
  steps.done('database_open');
  const storage = createStorage(config);
  try {
    const { staff, seeded } = await database.withStartupLock(async () => {
      await database.migrate();
      steps.done('migrations');
      const created = await ensureFirstStaffAccount(database.db, config.admin);
      const seeded = config.seedDemo && (await seedDemoCatalogue(database.db, storage));
      steps.done('seed');
      return { staff: created, seeded };
    });
    // Printed once the server listens, when the site's origin is known (PORT=0 takes any free port).
    const announceStart = () => {
      if (staff?.setupPath) {
        // A link, never a password: it works once, for a day, and is dead once used.
        announce(
          `First staff account created: ${staff.email}. Choose its password within 24 hours at ${new URL(staff.setupPath, config.publicUrl)} ` +
            '(the link works once; later, `npm run staff:reset-password` gives a new way in).',
        );
      } else if (staff) {
        announce(`First staff account created: ${staff.email}`);
      }
      if (seeded) announce('Demo catalogue loaded.');
    };
    const app = await buildApp({
      config,
      database,
      storage,
      pages: { devServer: options.devServer },
    });
    const controlSocket = database.kind === 'embedded' ? await startControlSocket(database, config.dataDir, app.log) : undefined;
    steps.done('app_built');
    // Earlier versions linked the demo videos and downloads as public files: moved into the file
    // store once, by one process, without holding the start (it reads the lessons and resources).
    void database
      .runAlone('move-demo-media', async () => {
        await moveDemoMediaIntoFileStore(database.db, storage);
      })
      .catch((error: unknown) => app.log.error({ err: loggableError(error) }, 'could not move the old demo media into the file store'));
    app.addHook('onClose', async () => {
      await controlSocket?.close();
      await database.close();
    });
    return { app, database, announceStart };
  } catch (error) {
    await database.close();
    throw error;
  }
}
