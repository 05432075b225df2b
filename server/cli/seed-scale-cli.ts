import { runDatabaseCommand } from './cli.ts';
import {
  SCALE_EMAIL_DOMAIN,
  SCALE_MEMBERS,
  SCALE_PASSWORD,
  SCALE_STAFF,
  analyzeScaleTables,
  countScaleTables,
  scaleRefusal,
  seedScaleData,
} from '../../db/seed/scale.ts';
import { seedDemoCatalogue } from '../../db/seed/seed.ts';
import { createStorage } from '../files/create-storage.ts';
import { hashPassword } from '../sessions/passwords.ts';

// `npm run seed:scale`: fills a PostgreSQL database of its own with a busy coaching business's
// volume (db/seed/scale.ts), for load tests. It never touches the embedded database or real members.
if (!process.env.DATABASE_URL?.trim()) {
  console.error('Refused: set DATABASE_URL to a PostgreSQL database of its own; the scale data set never goes into the embedded database.');
  process.exit(1);
}
// Each statement fills a whole table: far longer than the statement timeout sized for requests.
process.env.DATABASE_STATEMENT_TIMEOUT_MS = String(10 * 60_000);

const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;

await runDatabaseCommand('scale data set', async (database, config) => {
  // Checked before anything is written, migrations included.
  const refusal = await scaleRefusal(database.db);
  if (refusal) {
    console.error(refusal);
    process.exitCode = 1;
    return;
  }
  const started = performance.now();
  await database.withStartupLock(async () => {
    await database.migrate();
    await seedDemoCatalogue(database.db, createStorage(config));
  });
  // One hash for everyone: argon2 takes tens of milliseconds, and a benchmark can sign in as any member.
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  await seedScaleData(database.db, passwordHash, (step, milliseconds) => console.log(`  ${step}: ${seconds(milliseconds)}`));
  const analyzing = performance.now();
  await analyzeScaleTables(database.db);
  console.log(`  vacuum and analyze: ${seconds(performance.now() - analyzing)}`);

  console.log('Rows:');
  for (const { table, rows } of await countScaleTables(database.db)) {
    console.log(`  ${table.padEnd(20)} ${rows.toLocaleString('en-US').padStart(9)}`);
  }
  console.log(`Scale data set loaded in ${seconds(performance.now() - started)}.`);
  console.log(`Members sign in with member{n}@${SCALE_EMAIL_DOMAIN} / ${SCALE_PASSWORD} (n from 1 to ${SCALE_MEMBERS}).`);
  console.log(
    `Staff sign in with staff{n}@${SCALE_EMAIL_DOMAIN} / ${SCALE_PASSWORD} ` +
      `(owners 1 to ${SCALE_STAFF.owners}, editors ${SCALE_STAFF.owners + 1} to ${SCALE_STAFF.owners + SCALE_STAFF.editors}).`,
  );
});
