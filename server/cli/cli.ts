import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { DatabaseLockedError } from '../../db/lock.ts';

/** Runs a maintenance command against the configured database, with the same lock as the server. */
export async function runDatabaseCommand(purpose: string, command: (database: DatabaseHandle, config: Config) => Promise<void>) {
  let database: DatabaseHandle | undefined;
  try {
    const config = loadConfig();
    database = await openConfiguredDatabase(config, purpose);
    await command(database, config);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DatabaseLockedError) console.error(error.message);
    else console.error(`${purpose} failed:`, error);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
