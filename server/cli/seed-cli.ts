import { runDatabaseCommand } from './cli.ts';
import { seedDemoCatalogue } from '../../db/seed/seed.ts';
import { createStorage } from '../files/create-storage.ts';

// `npm run db:seed`: loads the demo catalogue (its videos and downloads into the file store) into an empty database.
await runDatabaseCommand('demo catalogue', async (database, config) => {
  const loaded = await database.withStartupLock(async () => {
    await database.migrate();
    return seedDemoCatalogue(database.db, createStorage(config));
  });
  console.log(loaded ? 'Demo catalogue loaded.' : 'The database already holds courses: nothing loaded.');
});
