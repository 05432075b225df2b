import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { DatabaseLockedError } from '../../db/lock.ts';
import { contactMessages, courses, lessons } from '../../db/schema.ts';
import { seedDemoCatalogue } from '../../db/seed/seed.ts';
import { LocalDiskStorage } from '../../server/files/storage.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('embedded database on disk', () => {
  it('keeps its data across a restart and applies migrations and the demo catalogue only once', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-db-'));
    dirs.push(dataDir);

    const first = await openDatabase({ kind: 'embedded', dataDir, purpose: 'test' });
    await first.migrate();
    expect(await seedDemoCatalogue(first.db, new LocalDiskStorage(path.join(dataDir, 'uploads')))).toBe(true);
    await first.db.insert(contactMessages).values({ name: 'Dana', email: 'dana@example.com', subject: 'Hi', message: 'Hello' });
    const courseCount = (await first.db.select({ value: count() }).from(courses))[0]!.value;
    const lessonCount = (await first.db.select({ value: count() }).from(lessons))[0]!.value;

    // A second process (here: a second open) must not get the directory while the first holds it.
    await expect(openDatabase({ kind: 'embedded', dataDir, purpose: 'second' })).rejects.toThrow(DatabaseLockedError);
    await first.close();

    const second = await openDatabase({ kind: 'embedded', dataDir, purpose: 'test restart' });
    await second.migrate();
    expect(await seedDemoCatalogue(second.db, new LocalDiskStorage(path.join(dataDir, 'uploads')))).toBe(false);
    expect((await second.db.select({ value: count() }).from(courses))[0]!.value).toBe(courseCount);
    expect((await second.db.select({ value: count() }).from(lessons))[0]!.value).toBe(lessonCount);
    expect((await second.db.select({ value: count() }).from(contactMessages))[0]!.value).toBe(1);
    await second.close();
  });

  it('writes a backup that restores into a working database', async () => {
    const source = await openDatabase({ kind: 'memory' });
    await source.migrate();
    const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-files-'));
    dirs.push(filesDir);
    await seedDemoCatalogue(source.db, new LocalDiskStorage(filesDir));
    const backup = await source.dumpDataDir!();
    const expected = (await source.db.select({ value: count() }).from(courses))[0]!.value;
    await source.close();

    const restored = await openDatabase({ kind: 'memory', loadDataDir: backup });
    expect((await restored.db.select({ value: count() }).from(courses))[0]!.value).toBe(expected);
    await restored.close();
  });
});
