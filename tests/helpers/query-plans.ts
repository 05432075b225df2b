import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DatabaseHandle } from '../../db/client.ts';
import { backgroundJob } from '../../server/background-work.ts';

// The statements a request sends and the work each one does, as PostgreSQL measures it: for tests
// that hold a query to its indexes (tests/api/scale-guard.test.ts).

export interface Statement {
  text: string;
  params: unknown[];
}

/** A read: a select, or a `with` that writes nothing (writes are never run again to be measured). */
const isRead = (text: string) =>
  /^\s*select\b/i.test(text) || (/^\s*with\b/i.test(text) && !/\b(insert\s+into|update\s+"?\w+"?\s+set|delete\s+from)\b/i.test(text));

const clientOf = (database: DatabaseHandle) => (database.db as unknown as { $client: unknown }).$client;

/** Runs `work` while recording every read sent through the database client (pg Pool or PGlite). */
export async function recordingReads<T>(database: DatabaseHandle, work: () => Promise<T>): Promise<{ result: T; reads: Statement[] }> {
  const target = clientOf(database) as { query?: (...args: unknown[]) => unknown };
  const own = Object.hasOwn(target, 'query');
  const original = target.query!;
  const reads: Statement[] = [];
  target.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config = first as { text?: string; values?: unknown[] };
    const text = typeof first === 'string' ? first : (config.text ?? '');
    // The server's scheduled jobs share the client: one that runs meanwhile is not what is measured.
    if (isRead(text) && !backgroundJob()) reads.push({ text, params: Array.isArray(second) ? second : (config.values ?? []) });
    return original.apply(this, args);
  };
  try {
    return { result: await work(), reads };
  } finally {
    // The pool's own wrapper (db/client.ts) goes back; PGlite's method is its prototype's again.
    if (own) target.query = original;
    else delete target.query;
  }
}

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  /** Per loop, as are the rows removed (EXPLAIN ANALYZE averages them over the loops). */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/**
 * The plan PostgreSQL chooses for the statement with its parameters, with the database's own
 * settings, run (EXPLAIN ANALYZE) in a transaction that is rolled back: what each node really read.
 * `settings` (`enable_indexscan = off`...) are set for that transaction only.
 */
export async function analyzedPlan(database: DatabaseHandle, { text, params }: Statement, settings: string[] = []): Promise<PlanNode> {
  const explain = `explain (analyze, format json) ${text}`;
  type Explained = { 'QUERY PLAN': { Plan: PlanNode }[] };
  if (database.kind === 'postgres') {
    const connection = await (clientOf(database) as pg.Pool).connect();
    try {
      await connection.query('begin');
      for (const setting of settings) await connection.query(`set local ${setting}`);
      const { rows } = await connection.query<Explained>(explain, params);
      return rows[0]!['QUERY PLAN'][0]!.Plan;
    } finally {
      await connection.query('rollback');
      connection.release();
    }
  }
  return (clientOf(database) as PGlite).transaction(async (tx) => {
    for (const setting of settings) await tx.query(`set local ${setting}`);
    const { rows } = await tx.query<Explained>(explain, params);
    await tx.rollback();
    return rows[0]!['QUERY PLAN'][0]!.Plan;
  });
}

export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The rows a node read over all its loops: those it passed on and those its filter or recheck threw away. */
export const rowsRead = (node: PlanNode) =>
  Math.round(
    ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) *
      (node['Actual Loops'] ?? 1),
  );

/** The plan as indented lines with the rows each node read, for a failure message. */
export const describePlan = (node: PlanNode, depth = 0): string[] => [
  `${'  '.repeat(depth)}${node['Node Type']}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}` +
    `${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Index Cond'] ? ` (${node['Index Cond']})` : ''}` +
    `${node.Filter ? ` filter ${node.Filter}` : ''} [read ${rowsRead(node)} in ${node['Actual Loops'] ?? 1} loop(s)]`,
  ...(node.Plans ?? []).flatMap((child) => describePlan(child, depth + 1)),
];

/** The table of each index of the public schema (a Bitmap Index Scan names its index only). */
export async function tablesOfIndexes(database: DatabaseHandle): Promise<Map<string, string>> {
  const { rows } = (await database.db.execute(sql`select indexname, tablename from pg_indexes where schemaname = 'public'`)) as unknown as {
    rows: { indexname: string; tablename: string }[];
  };
  return new Map(rows.map((row) => [row.indexname, row.tablename]));
}
