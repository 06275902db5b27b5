import { describe, expect, it } from 'vitest';
import { MemoryPagingHints } from '../../src/contacts/memoryPagingHints.js';
import { hintKey, HINT_TTL_SECONDS, MAX_POSITIONS } from '../../src/contacts/pagingHints.js';

describe('in-process paging hints (no REDIS_URL)', () => {
  it('finds the nearest remembered position at or before an offset', async () => {
    const hints = new MemoryPagingHints();
    await hints.remember('k', { offset: 100, lastId: 150 });
    await hints.remember('k', { offset: 200, lastId: 260 });
    expect(await hints.nearest('k', 99)).toBeUndefined();
    expect(await hints.nearest('k', 100)).toEqual({ offset: 100, lastId: 150 });
    expect(await hints.nearest('k', 250)).toEqual({ offset: 200, lastId: 260 });
    expect(await hints.nearest('other', 250)).toBeUndefined();
  });

  it('forgets everything after its time to live', async () => {
    let now = 0;
    const hints = new MemoryPagingHints(() => now);
    await hints.remember('k', { offset: 10, lastId: 11 });
    await hints.rememberTotal('k', 42);
    now = HINT_TTL_SECONDS * 1000 - 1;
    expect(await hints.total('k')).toBe(42);
    now = HINT_TTL_SECONDS * 1000 * 3;
    expect(await hints.total('k')).toBeUndefined();
    expect(await hints.nearest('k', 10)).toBeUndefined();
  });

  it('keeps a bounded number of positions, dropping the lowest offsets', async () => {
    const hints = new MemoryPagingHints();
    for (let i = 1; i <= MAX_POSITIONS + 5; i++)
      await hints.remember('k', { offset: i, lastId: i });
    expect(await hints.nearest('k', 5)).toBeUndefined();
    expect(await hints.nearest('k', 6)).toEqual({ offset: 6, lastId: 6 });
  });

  it('keys hints by account, scope, window and version', () => {
    const a = hintKey(1, { botId: 2, dateFrom: 3 }, 4);
    expect(
      new Set([
        a,
        hintKey(9, { botId: 2, dateFrom: 3 }, 4),
        hintKey(1, {}, 4),
        hintKey(1, { botId: 2, dateTo: 3 }, 4),
        hintKey(1, { botId: 2, dateFrom: 3 }, 5),
      ]).size,
    ).toBe(5);
  });
});
