import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { staffAccounts } from '../../db/schema.ts';
import { hashPassword, verifyPassword } from '../../server/sessions/passwords.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('npm run staff:reset-password', () => {
  it('gives a staff account locked out of its email a new password, printed once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-cli-'));
    dirs.push(dataDir);
    const database = await openDatabase({ kind: 'embedded', dataDir, purpose: 'test' });
    await database.migrate();
    await database.db.insert(staffAccounts).values({ email: 'owner@example.com', passwordHash: await hashPassword('forgotten password') });
    await database.close();

    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    const { stdout } = await run(process.execPath, ['server/cli/staff-reset-password-cli.ts', 'OWNER@example.com'], { cwd: root, env });
    const password = /New password for owner@example\.com: (\S+)/.exec(stdout)?.[1];
    expect(password).toBeTruthy();

    const after = await openDatabase({ kind: 'embedded', dataDir, purpose: 'test' });
    const [staff] = await after.db.select().from(staffAccounts).where(eq(staffAccounts.email, 'owner@example.com'));
    expect(await verifyPassword(staff!.passwordHash, password!)).toBe(true);
    expect(await verifyPassword(staff!.passwordHash, 'forgotten password')).toBe(false);
    await after.close();

    const unknown = await run(process.execPath, ['server/cli/staff-reset-password-cli.ts', 'nobody@example.com'], { cwd: root, env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in unknown && unknown.code).toBe(1);
    expect(unknown.stderr).toContain('There is no staff account with the email nobody@example.com.');
  });
});
