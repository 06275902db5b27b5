import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, sqlState } from '../../src/infra/db/databaseErrors.js';

/** A Postgres error as drizzle throws it: the driver's error as the cause. */
const wrapped = (code: string) =>
  Object.assign(new Error('Failed query: insert …'), {
    cause: Object.assign(new Error('postgres said no'), { code }),
  });

describe('database errors answered 503 (retry) rather than 500', () => {
  it.each([
    ['57014', 'statement timeout'],
    ['55P03', 'lock timeout'],
    ['40P01', 'deadlock'],
    ['57P01', 'admin shutdown'],
    ['53300', 'too many connections'],
    ['ECONNREFUSED', 'connection refused'],
    ['CIINF', 'Citus: an intermediate result gone with a failed part of the transaction'],
  ])('%s (%s) is unavailable', (code) => {
    expect(isDatabaseUnavailable(wrapped(code))).toBe(true);
  });

  it.each([
    ['23505', 'unique violation'],
    ['22P02', 'invalid text representation'],
    ['42P01', 'undefined table'],
  ])('%s (%s) is a defect or a conflict, not unavailability', (code) => {
    expect(isDatabaseUnavailable(wrapped(code))).toBe(false);
    expect(sqlState(wrapped(code))).toBe(code);
  });

  it('recognises a dropped connection by its message', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });

  it('recognises a statement that reached a Citus shard dropped after its move', () => {
    const gone = (message: string) =>
      Object.assign(new Error('Failed query: insert …'), {
        cause: Object.assign(new Error(message), { code: '42P01' }),
      });
    expect(isDatabaseUnavailable(gone('relation "public.bots_102014" does not exist'))).toBe(true);
    expect(isDatabaseUnavailable(gone('relation "public.bots" does not exist'))).toBe(false);
  });

  it('answers a duplicate of the change feed’s key, on Postgres or a Citus shard, with a retry', () => {
    const duplicate = (constraint: string, code = '23505') =>
      Object.assign(new Error('Failed query: insert …'), {
        cause: Object.assign(
          new Error(`duplicate key value violates unique constraint "${constraint}"`),
          { code },
        ),
      });
    expect(isDatabaseUnavailable(duplicate('changes_account_id_seq_pk'))).toBe(true);
    expect(isDatabaseUnavailable(duplicate('changes_account_id_seq_pk_102270', 'XX000'))).toBe(
      true,
    );
    // another key's duplicate stays the caller's conflict
    expect(isDatabaseUnavailable(duplicate('idempotency_keys_owner_id_key_pk'))).toBe(false);
    expect(isDatabaseUnavailable(duplicate('changes_account_id_seq_pk_x'))).toBe(false);
  });

  it('recognises a Citus intermediate result lost at a shard move by its message', () => {
    const lost = Object.assign(
      new Error('Query could not find the intermediate result file "299_2", it was …'),
      { code: 'XX000' },
    );
    expect(isDatabaseUnavailable(wrapped('XX000'))).toBe(false);
    expect(isDatabaseUnavailable(lost)).toBe(true);
    const switching = Object.assign(new Error('could not find valid entry for shard 102277'), {
      code: 'XX000',
    });
    expect(isDatabaseUnavailable(switching)).toBe(true);
    const swapped = Object.assign(new Error('relation changes is not distributed'), {
      code: 'XX000',
    });
    expect(isDatabaseUnavailable(swapped)).toBe(true);
    // the same words inside another message are not this state
    expect(isDatabaseUnavailable(new Error('index foo is not distributed'))).toBe(false);
  });
});
