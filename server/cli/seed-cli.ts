import { runDatabaseCommand } from './cli.ts';
import { seedDemoCatalogue } from '../../db/seed/seed.ts';

// `npm run db:seed`: loads the demo catalogue into an empty database.
await runDatabaseCommand('demo catalogue', async (database) => {
  const loaded = await database.withStartupLock(async () => {
    await database.migrate();
    return seedDemoCatalogue(database.db);
  });
  console.log(loaded ? 'Demo catalogue loaded.' : 'The database already holds courses: nothing loaded.');
});
