import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// On PostgreSQL, two writes that lock the same rows in opposite orders deadlock, and the database
// rolls one back (a busy hour of likes and replies did: each announces its change on shared counters
// in the order it touches its tables). The rolled-back one is run again (db/client.ts), so neither
// member sees an error. The embedded database runs one statement at a time and cannot deadlock.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t.close());

describe('writes that meet each other on PostgreSQL', () => {
  it('runs a transaction the database rolled back for a deadlock again, and both go through', async (context) => {
    if (t.database.kind === 'embedded') return context.skip();
    const db = t.database.db;
    await db.execute(sql`create table conflict_probe (name text primary key, hits integer not null)`);
    await db.execute(sql`insert into conflict_probe values ('a', 0), ('b', 0)`);
    let firstLocks = 0;
    let bothLocked!: () => void;
    const ready = new Promise<void>((resolve) => (bothLocked = resolve));
    let attempts = 0;
    // Each locks one row, waits until the other has locked the other row, then wants that one too.
    const crossing = (first: string, second: string) =>
      db.transaction(async (tx) => {
        attempts += 1;
        await tx.execute(sql`update conflict_probe set hits = hits + 1 where name = ${first}`);
        if (++firstLocks === 2) bothLocked();
        await ready;
        await tx.execute(sql`update conflict_probe set hits = hits + 1 where name = ${second}`);
      });
    await Promise.all([crossing('a', 'b'), crossing('b', 'a')]);
    expect(attempts).toBe(3);
    const { rows } = (await db.execute(sql`select name, hits from conflict_probe order by name`)) as unknown as { rows: unknown[] };
    expect(rows).toEqual([
      { name: 'a', hits: 2 },
      { name: 'b', hits: 2 },
    ]);
  });

  it('answers every like and reply among several members at once', async () => {
    const members: MemberLogin[] = [];
    for (let index = 0; index < 6; index++) members.push(await t.loginAs('bronze'));
    const posts: string[] = [];
    for (const author of members.slice(0, 2)) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/community/posts',
        headers: author.headers,
        payload: { title: `Busy ${posts.length}`, body: 'Talk to me.' },
      });
      expect(made.statusCode, made.body).toBe(201);
      posts.push((made.json() as { id: string }).id);
    }
    // A like and a reply each change the discussion and notify its author: the same counters, met from both sides.
    const answers = await Promise.all(
      members.flatMap((member, index) =>
        posts.flatMap((post, turn) => [
          t.app.inject({ method: 'PUT', url: `/api/community/posts/${post}/like`, headers: member.headers }),
          t.app.inject({
            method: 'POST',
            url: `/api/community/posts/${post}/replies`,
            headers: member.headers,
            payload: { body: `Reply ${index}-${turn}` },
          }),
        ]),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).filter((status) => status >= 300)).toEqual([]);
  });
});
