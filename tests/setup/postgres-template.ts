import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplate: string;
  }
}

/** Migrates one template database per run; every test file then copies it (CREATE DATABASE ... TEMPLATE). */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const template = `rp_template_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const database = await openDatabase({ kind: 'postgres', url: withDatabase(url, template) });
  await database.migrate();
  await database.close();
  project.provide('postgresTemplate', template);
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
