/**
 * Scenario g: getContacts in offset mode over HTTP against the server process — every page
 * of the bot read in sequence (as an export pages), then cold jumps (remembered positions
 * forgotten) to the first and the last page, and the whole export's time next to a raw
 * keyset export (`id > last`, same columns, plain pg, no HTTP). The two exports run page by
 * page in turns, so a slow spell of the machine falls on both; each export's time is the sum
 * of its pages' times.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { contactColumns } from '../../src/contacts/contactRepository.js';
import { median } from './stats.js';

export interface ExportResult {
  pages: number;
  total: number;
  /** medians of the first and the last ten pages, ms */
  firstPageMs: number;
  lastPageMs: number;
  coldFirstMs: number;
  coldLastMs: number;
  exportMs: number;
  rawKeysetMs: number;
}

export async function exportScenario(opts: {
  url: string;
  apiKey: string;
  botId: number;
  databaseUrl: string;
  redisUrl: string;
  /** the server's key prefix for paging hints */
  redisPrefix: string;
  limit: number;
  coldRuns: number;
}): Promise<ExportResult> {
  const { url, apiKey, botId, limit } = opts;
  const page = async (offset: number) => {
    const start = process.hrtime.bigint();
    const res = await fetch(
      `${url}/api/v1/getContacts?bot_id=${botId}&offset=${offset}&limit=${limit}`,
      {
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      },
    );
    const text = await res.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.status !== 200)
      throw new Error(`getContacts answered ${res.status}: ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as { data: unknown[]; meta: { total: number } };
    return { ms, rows: body.data.length, total: body.meta.total };
  };
  const redis = new Redis(opts.redisUrl, { lazyConnect: true });
  await redis.connect();
  const forget = async () => {
    // only this bot's hints, in the bench's own Redis database
    for (const kind of ['pos', 'total']) {
      const keys = await redis.keys(`${opts.redisPrefix}contacts:${kind}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  };
  try {
    await forget();
    const times: number[] = [];
    let total = 0;
    let exportMs = 0;
    const raw = await rawKeysetExport(opts.databaseUrl, botId, limit);
    try {
      for (let offset = 0; ; offset += limit) {
        const p = await page(offset);
        exportMs += p.ms;
        await raw.next();
        total = p.total;
        if (p.rows === 0) break;
        times.push(p.ms);
        if (p.rows < limit) break;
      }
      while (!raw.done()) await raw.next();
    } finally {
      await raw.close();
    }
    const lastOffset = Math.max(0, (Math.ceil(total / limit) - 1) * limit);
    const cold = { first: [] as number[], last: [] as number[] };
    for (let r = 0; r < opts.coldRuns; r++) {
      await forget();
      cold.first.push((await page(0)).ms);
      await forget();
      cold.last.push((await page(lastOffset)).ms);
    }
    await forget();
    return {
      pages: times.length,
      total,
      firstPageMs: median(times.slice(0, 10)),
      lastPageMs: median(times.slice(-10)),
      coldFirstMs: median(cold.first),
      coldLastMs: median(cold.last),
      exportMs,
      rawKeysetMs: raw.ms(),
    };
  } finally {
    redis.disconnect();
  }
}

/**
 * The same columns by keyset, parsed and serialised to JSON as a response would be, one page
 * per `next()`; `ms()` is the sum of the pages' times.
 */
async function rawKeysetExport(databaseUrl: string, botId: number, limit: number) {
  const { sql: text } = new PgDialect().sqlToQuery(
    sql`SELECT ${contactColumns()} FROM contacts c
        WHERE c.bot_id = $1 AND NOT c.preview AND c.id > $2 ORDER BY c.id LIMIT $3`,
  );
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let after = 0;
  let finished = false;
  let spent = 0;
  return {
    async next() {
      if (finished) return;
      const start = process.hrtime.bigint();
      const { rows } = await client.query<{ id: string }>(text, [botId, after, limit]);
      JSON.stringify(rows);
      spent += Number(process.hrtime.bigint() - start) / 1e6;
      if (rows.length < limit) finished = true;
      else after = Number(rows[rows.length - 1]!.id);
    },
    done: () => finished,
    ms: () => spent,
    close: () => client.end(),
  };
}
