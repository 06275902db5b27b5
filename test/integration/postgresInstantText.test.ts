import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { instantOf, parseInstant, postgresUtcMillis } from '../../src/lists/field-types/instant.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * A record's timestamps arrive as Postgres's own text (`2024-05-01 10:20:00.123456+00`) and
 * are read digit by digit (instant.ts, postgresUtcMillis). Checked here against Postgres
 * itself: the instant it writes as that text, in milliseconds (the fraction truncated).
 */
const t = testAppForFile({ redis: false });

interface InstantRow {
  text: string;
  ms: number;
}

/**
 * 2,000 instants from `fromYear` to 9999 (leap days, whole seconds and 1 to 6 fraction digits
 * among them), as text in `zone`.
 */
async function instantsAsText(db: Database, zone: string, fromYear: number): Promise<InstantRow[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('TimeZone', ${zone}, true)`);
    return queryRows<InstantRow>(
      tx,
      sql`select ts::text as text, floor(extract(epoch from ts) * 1000)::float8 as ms
          from generate_series(1, 2000) k,
            lateral (select (10 ^ (k % 7))::int as unit) u,
            lateral (select case
              when k % 10 = 0 then make_timestamptz(2000 + (k % 250) / 10 * 4, 2, 29, k % 24, 0, 0, 'UTC')
              else make_timestamptz(${fromYear} + (k * 37) % (10000 - ${fromYear}), 1 + k % 12,
                1 + (k * 7) % 28, k % 24, (k * 13) % 60, (k * 17) % 60, 'UTC')
                + (k * 7919 % 1000000 / u.unit * u.unit) * interval '1 microsecond'
            end as ts) i`,
    );
  });
}

describe("a record's timestamps as Postgres writes them", () => {
  it('reads every instant of a UTC session exactly as Postgres means it', async () => {
    const rows = await instantsAsText(t.db, 'UTC', 100);
    // every form among them: whole seconds, 1 to 6 fraction digits, years of 3 digits
    expect(new Set(rows.map((r) => r.text.length)).size).toBeGreaterThanOrEqual(6);
    expect(rows.some((r) => r.text.startsWith('0'))).toBe(true);
    for (const row of rows) {
      expect({ text: row.text, ms: postgresUtcMillis(row.text) }).toEqual(row);
      expect(instantOf(row.text).getTime()).toBe(row.ms);
    }
  });

  it('leaves another zone to the general reader, which gets it right', async () => {
    // from 1950: before, the zone's offsets are local mean time, to the second
    const rows = await instantsAsText(t.db, 'Asia/Kolkata', 1950);
    for (const row of rows) {
      expect(row.text).toMatch(/\+05:30$/);
      expect(postgresUtcMillis(row.text)).toBeUndefined();
      expect(instantOf(row.text).getTime()).toBe(row.ms);
    }
  });

  it('refuses what is not that form', () => {
    for (const text of [
      '2024-05-01 10:20:00+01',
      '2024-05-01 10:20:00-00',
      '2024-05-01 10:20+00',
      '2024-05-01T10:20:00+00',
      '2024-05-01 10:20:00.+00',
      '2024-05-01 10:20:00.1234567+00',
      '2024-05-01 10:20:00 BC+00',
      '0099-05-01 10:20:00+00',
      '2023-02-29 10:20:00+00',
      '2024-05-01 24:00:00+00',
      '2024-05-01 10:20:0x+00',
      '',
    ]) {
      expect(postgresUtcMillis(text), text).toBeUndefined();
    }
    // a year before 100, which Date.UTC would move to the 1900s, goes the general way
    expect(instantOf('0099-05-01 10:20:00+00').toISOString()).toBe(
      parseInstant('0099-05-01T10:20:00Z')!.toISOString(),
    );
  });
});
