import { runDatabaseCommand } from './cli.ts';
import { seedDemoCatalogue } from '../../db/seed/seed.ts';

// `npm run db:seed`: loads the demo catalogue into an empty database.
await runDatabaseCommand('demo catalogue', async (database) => {
  await database.migrate();
  console.log((await seedDemoCatalogue(database.db)) ? 'Demo catalogue loaded.' : 'The database already holds courses: nothing loaded.');
});
