// TEMPORARY probe (deleted after): does a transaction whose BEGIN fails leak its pool client?
import { sql } from 'drizzle-orm';
import { openDatabase } from './db/client.ts';
import { startPostgres, cleanupAll, sleep } from './tests/fault/harness.ts';

const cluster = await startPostgres();
const handle = await openDatabase({ kind: 'postgres', url: cluster.url });
const pool = (handle.db as unknown as { $client: import('pg').Pool }).$client;
let failures = 0;
let beginFailures = 0;
let stop = false;
const loops = Array.from({ length: 8 }, async () => {
  while (!stop) {
    try {
      await handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      });
    } catch (error) {
      failures++;
      if ((error as { query?: string }).query === 'begin') beginFailures++;
      await sleep(5);
    }
  }
});
for (let i = 0; i < Number(process.argv[2] ?? 5); i++) {
  await sleep(300);
  await cluster.restart('fast');
}
await sleep(500);
stop = true;
await Promise.all(loops);
await sleep(300);
console.log(`beginFailures=${beginFailures} failures=${failures} total=${pool.totalCount} idle=${pool.idleCount} waiting=${pool.waitingCount}`);
await cleanupAll();
process.exit(0);
