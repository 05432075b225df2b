import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { AttemptLimiter } from '../http/attempt-limiter.ts';
import { createDataAccess } from '../repositories.ts';
import { hashPassword } from '../sessions/passwords.ts';
import { SessionService } from '../sessions/session.service.ts';
import { runDatabaseCommand } from './cli.ts';
import { createSessionsRepository } from '../sessions/sessions.repository.ts';

// `npm run staff:reset-password -- EMAIL`: for the owner who cannot reach their email. Sets a new
// random password, prints it once, ends that account's sessions and clears its sign-in lockout.
const email = process.argv[2];
if (!email) {
  console.error('Usage: npm run staff:reset-password -- EMAIL');
  process.exit(1);
}

await runDatabaseCommand('staff password reset', async (database, config) => {
  const data = createDataAccess(database.db);
  const staff = await data.staff.findByEmail(email);
  if (!staff) {
    console.error(`There is no staff account with the email ${email}.`);
    process.exitCode = 1;
    return;
  }
  const password = randomBytes(12).toString('base64url');
  await data.transaction(async (tx) => {
    await tx.staff.setPassword(staff.id, await hashPassword(password));
    await tx.audit.record({
      actorEmail: 'command line',
      action: 'staff.password-reset',
      target: staff.email,
      oldValue: null,
      newValue: null,
    });
  });
  await new SessionService(createSessionsRepository(database.db), {
    idleMs: config.sessionIdleMs,
    maxMs: config.sessionMaxMs,
  }).revokeStaffSessions(staff.id);
  if (config.redisUrl) {
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
    await new AttemptLimiter(`${config.redisKeyPrefix}:limit`, redis).forget('staff-login:account-address', `${staff.email}|`);
    redis.disconnect();
  }
  console.log(`New password for ${staff.email}: ${password}  (shown once: sign in at /admin/login and keep it safe)`);
});
