import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/shared/boundedMap.js';

const keysOf = <K, V>(map: BoundedMap<K, V>) => [...map].map(([k]) => k);

describe('BoundedMap', () => {
  it('forgets the entry set longest ago once full, and tells onEvict', () => {
    const evicted: [string, number][] = [];
    const map = new BoundedMap<string, number>(3, { onEvict: (k, v) => evicted.push([k, v]) });
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) map.set(k, i);
    expect(keysOf(map)).toEqual(['b', 'c', 'd']);
    expect(evicted).toEqual([['a', 0]]);
    expect(map.get('a')).toBeUndefined();
  });

  it('counts a set of a held key as the newest, without forgetting another', () => {
    const evicted: string[] = [];
    const map = new BoundedMap<string, number>(2, { onEvict: (k) => evicted.push(k) });
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    expect(keysOf(map)).toEqual(['b', 'a']);
    expect(map.get('a')).toBe(3);
    map.set('c', 4);
    expect(keysOf(map)).toEqual(['a', 'c']);
    expect(evicted).toEqual(['b']);
  });

  it('moves an entry to the newest on touch but not on get', () => {
    const map = new BoundedMap<string, number>(3);
    for (const k of ['a', 'b', 'c']) map.set(k, 0);
    map.get('a');
    expect(keysOf(map)).toEqual(['a', 'b', 'c']);
    expect(map.touch('a')).toBe(0);
    expect(map.touch('z')).toBeUndefined();
    map.set('d', 0);
    expect(keysOf(map)).toEqual(['c', 'a', 'd']);
  });

  it('does not call onEvict for deletes or clear, and holds at least one entry', () => {
    const evicted: string[] = [];
    const map = new BoundedMap<string, number>(0, { onEvict: (k) => evicted.push(k) });
    map.set('a', 1);
    expect(map.size).toBe(1);
    expect(map.delete('a')).toBe(true);
    map.set('b', 1);
    map.clear();
    expect(map.size).toBe(0);
    expect(evicted).toEqual([]);
  });

  it('bounds what the entries weigh, keeping an entry that alone weighs more', () => {
    const evicted: string[] = [];
    const map = new BoundedMap<string, number>(10, {
      weigh: (v) => v,
      onEvict: (k) => evicted.push(k),
    });
    map.set('a', 4);
    map.set('b', 4);
    map.set('a', 2); // a held key weighs its new value: 4 + 2
    map.set('c', 4);
    expect(keysOf(map)).toEqual(['b', 'a', 'c']);
    map.set('d', 3); // 13: the oldest go until it fits
    expect(keysOf(map)).toEqual(['a', 'c', 'd']);
    expect(evicted).toEqual(['b']);
    map.delete('a');
    map.set('e', 3); // 4 + 3 + 3 fits once a is gone
    expect(keysOf(map)).toEqual(['c', 'd', 'e']);
    map.set('f', 12);
    expect(keysOf(map)).toEqual(['f']);
    expect(evicted).toEqual(['b', 'c', 'd', 'e']);
    map.clear();
    map.set('g', 10);
    expect(keysOf(map)).toEqual(['g']);
  });
});
