import { runDatabaseCommand } from './cli.ts';

// `npm run db:migrate`: applies pending migrations (the server also does this at start).
await runDatabaseCommand('migration', async (database) => {
  await database.withStartupLock(() => database.migrate());
  console.log('Migrations applied.');
});
