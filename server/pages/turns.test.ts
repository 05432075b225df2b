import { describe, expect, it } from 'vitest';
import { Turns } from './turns.ts';

describe('Turns', () => {
  it('runs at most so many at once, the others in the order they came, and passes failures on', async () => {
    const turns = new Turns(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const work = (id: number, fails = false) =>
      turns.run(async () => {
        started.push(id);
        await new Promise<void>((resolve) => finish.push(resolve));
        if (fails) throw new Error(`work ${id} failed`);
        return id;
      });
    const runs = [work(1, true), work(2), work(3), work(4)];
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    expect(turns.load).toEqual({ active: 2, waiting: 2 });

    finish[0]!();
    await expect(runs[0]).rejects.toThrow('work 1 failed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    expect(turns.load).toEqual({ active: 2, waiting: 1 });

    finish[1]!();
    finish[2]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3, 4]);
    finish[3]!();
    expect(await Promise.all(runs.slice(1))).toEqual([2, 3, 4]);
    expect(turns.load).toEqual({ active: 0, waiting: 0 });
  });
});
