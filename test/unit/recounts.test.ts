import { describe, expect, it } from 'vitest';
import { Recounts, type Recount } from '../../src/lists/items/recounts.js';

/** A recount whose advance and count end when the test says so, counting their calls. */
function heldRecount(advanced: boolean) {
  const calls = { advance: 0, count: 0 };
  let finish: (failure?: Error) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    finish = (failure) => (failure ? reject(failure) : resolve());
  });
  const recount: Recount = {
    advance: async () => {
      calls.advance++;
      if (advanced) await ended;
      return advanced;
    },
    count: async () => {
      calls.count++;
      await ended;
    },
  };
  return { recount, calls, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Recounts: the background work behind kept counts', () => {
  it('answers fresh counts without recounting them', async () => {
    const recounts = new Recounts(50, () => undefined);
    const { recount, calls } = heldRecount(true);
    expect(await recounts.read('k', async () => ({ events: 50 }), recount)).toEqual({ events: 50 });
    expect(calls).toEqual({ advance: 0, count: 0 });
  });

  it('answers counts too far behind and brings them forward once, however many reads ask', async () => {
    const recounts = new Recounts(50, () => undefined);
    const { recount, calls, finish } = heldRecount(true);
    for (let i = 0; i < 3; i++)
      expect(await recounts.read('k', async () => ({ events: 51 }), recount)).toEqual({
        events: 51,
      });
    expect(calls).toEqual({ advance: 1, count: 0 });
    finish();
    await settle();
    await recounts.read('k', async () => ({ events: 51 }), recount);
    expect(calls.advance).toBe(2);
  });

  it('counts anew where the advance is refused, and reads meanwhile skip the counts', async () => {
    const recounts = new Recounts(50, () => undefined);
    const { recount, calls, finish } = heldRecount(false);
    let reads = 0;
    const read = async () => (reads++ === 0 ? undefined : { events: 0 });
    expect(await recounts.read('k', read, recount)).toBeUndefined();
    await settle();
    expect(calls).toEqual({ advance: 1, count: 1 });
    // behind: answered without reading the counts, and no second recount
    expect(await recounts.read('k', read, recount)).toBeUndefined();
    expect(reads).toBe(1);
    expect(calls).toEqual({ advance: 1, count: 1 });
    finish();
    await settle();
    expect(await recounts.read('k', read, recount)).toEqual({ events: 0 });
    expect(reads).toBe(2);
  });

  it('tells of a failed recount and lets the next read try the counts again', async () => {
    const failures: [unknown, string][] = [];
    const recounts = new Recounts(50, (err, key) => failures.push([err, key]));
    const { recount, finish } = heldRecount(false);
    expect(await recounts.read('list 7, slot t1', async () => undefined, recount)).toBeUndefined();
    const failure = new Error('the count timed out');
    finish(failure);
    await settle();
    expect(failures).toEqual([[failure, 'list 7, slot t1']]);
    expect(await recounts.read('list 7, slot t1', async () => ({ events: 1 }), recount)).toEqual({
      events: 1,
    });
  });

  it('keeps each key to itself', async () => {
    const recounts = new Recounts(50, () => undefined);
    const { recount, calls } = heldRecount(false);
    await recounts.read('a', async () => undefined, recount);
    await recounts.read('b', async () => undefined, recount);
    await settle();
    expect(calls).toEqual({ advance: 2, count: 2 });
    expect(await recounts.read('c', async () => ({ events: 0 }), recount)).toEqual({ events: 0 });
  });
});
