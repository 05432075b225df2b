import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { describe, expect, it } from 'vitest';

// PostgreSQL gets each migration as one text (migrateInFewRoundTrips in db/client.ts), its
// statements one after the other: each must end with a semicolon, or two would run as one.

const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

describe('the migrations', () => {
  it('end every statement with a semicolon, so a migration can be sent as one text', () => {
    const unterminated = readMigrationFiles({ migrationsFolder: folder }).flatMap((migration, index) =>
      migration.sql
        .map((statement) => statement.replace(/--[^\n]*$/gm, '').trim())
        .filter((statement) => statement !== '' && !statement.endsWith(';'))
        .map((statement) => `migration ${index}: …${statement.slice(-60)}`),
    );
    expect(unterminated).toEqual([]);
  });
});
