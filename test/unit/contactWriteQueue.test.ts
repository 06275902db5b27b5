import { describe, expect, it } from 'vitest';
import { ContactWriteQueue } from '../../src/contacts/contactLocks.js';
import { ContendedError } from '../../src/shared/domainErrors.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A write that records when it ran and finishes when `finish` is called. */
function gatedWrite(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const write = async () => {
    log.push(`${name} start`);
    await done;
    log.push(`${name} end`);
    return name;
  };
  return { write, finish };
}

describe('ContactWriteQueue', () => {
  it('runs writes of one contact one after the other, in arrival order', async () => {
    const queue = new ContactWriteQueue();
    const log: string[] = [];
    const a = gatedWrite(log, 'a');
    const b = gatedWrite(log, 'b');
    const first = queue.hold(['1:2:telegram:7'], a.write);
    const second = queue.hold(['1:2:telegram:7'], b.write);
    await tick();
    expect(log).toEqual(['a start']);
    a.finish();
    b.finish();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('runs writes of different contacts at once', async () => {
    const queue = new ContactWriteQueue();
    const log: string[] = [];
    const a = gatedWrite(log, 'a');
    const b = gatedWrite(log, 'b');
    const both = Promise.all([queue.hold(['k1'], a.write), queue.hold(['k2'], b.write)]);
    await tick();
    expect(log).toEqual(['a start', 'b start']);
    a.finish();
    b.finish();
    await both;
  });

  it('takes a batch’s keys in one order, so batches given in opposite orders both finish', async () => {
    const queue = new ContactWriteQueue();
    const log: string[] = [];
    const a = gatedWrite(log, 'a');
    const b = gatedWrite(log, 'b');
    const first = queue.hold(['k1', 'k2', 'k3'], a.write);
    const second = queue.hold(['k3', 'k2', 'k1', 'k3'], b.write);
    await tick();
    expect(log).toEqual(['a start']);
    a.finish();
    b.finish();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
  });

  it('answers a write that waited past its bound as contended, and runs the next', async () => {
    const queue = new ContactWriteQueue(50);
    const log: string[] = [];
    const a = gatedWrite(log, 'a');
    const first = queue.hold(['k'], a.write);
    const late = queue.hold(['k'], async () => 'never');
    await expect(late).rejects.toBeInstanceOf(ContendedError);
    a.finish();
    expect(await first).toBe('a');
    expect(await queue.hold(['k'], async () => 'next')).toBe('next');
  });

  it('passes a write’s own failure on, and frees its keys', async () => {
    const queue = new ContactWriteQueue();
    await expect(
      queue.hold(['k'], async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await queue.hold(['k'], async () => 'after')).toBe('after');
  });
});
