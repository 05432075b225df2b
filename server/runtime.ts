import type { FastifyInstance } from 'fastify';
import type { ViteDevServer } from 'vite';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { moveDemoMediaIntoFileStore, seedDemoCatalogue } from '../db/seed/seed.ts';
import { buildApp } from './app.ts';
import { startControlSocket } from './backup/control-socket.ts';
import type { Config } from './config.ts';
import { createStorage } from './files/create-storage.ts';
import { ensureFirstStaffAccount } from './staff/bootstrap.ts';

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else embedded under DATA_DIR. */
export function openConfiguredDatabase(config: Config, purpose: string): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl, timeouts: config.database })
    : openDatabase({ kind: 'embedded', dataDir: config.dataDir, purpose });
}

/** Everything a start needs: database migrated, first staff account, demo catalogue, then the app. */
export async function prepareServer(
  config: Config,
  options: { devServer?: ViteDevServer; announce?: (line: string) => void } = {},
): Promise<{ app: FastifyInstance; database: DatabaseHandle }> {
  const announce = options.announce ?? ((line: string) => console.log(line));
  const database = await openConfiguredDatabase(config, `server on port ${config.port}`);
  const storage = createStorage(config);
  try {
    const { staff, seeded } = await database.withStartupLock(async () => {
      await database.migrate();
      const created = await ensureFirstStaffAccount(database.db, config.admin, config.publicUrl);
      const seeded = config.seedDemo && (await seedDemoCatalogue(database.db, storage));
      // Earlier versions linked the demo videos and downloads as public files.
      await moveDemoMediaIntoFileStore(database.db, storage);
      return { staff: created, seeded };
    });
    if (staff?.setupLink) {
      // A link, never a password: it works once, for a day, and is dead once used.
      announce(
        `First staff account created: ${staff.email}. Choose its password within 24 hours at ${staff.setupLink} ` +
          '(the link works once; later, `npm run staff:reset-password` gives a new way in).',
      );
    } else if (staff) {
      announce(`First staff account created: ${staff.email}`);
    }
    if (seeded) announce('Demo catalogue loaded.');
    const app = await buildApp({
      config,
      database,
      storage,
      pages: { devServer: options.devServer },
    });
    const controlSocket = database.kind === 'embedded' ? await startControlSocket(database, config.dataDir, app.log) : undefined;
    app.addHook('onClose', async () => {
      await controlSocket?.close();
      await database.close();
    });
    return { app, database };
  } catch (error) {
    await database.close();
    throw error;
  }
}
