/**
 * What other lists' records cost a list's reads, at the statement: the same index-only reads
 * of the sweep's 1M list in its database alone (`lk_sweep`) and in the one where the table
 * also holds other lists' records, interleaved (`lk_sweep_o<N>`, `npm run bench:sweep --
 * --sizes 1000000 --other-records N`). One connection each, no concurrency, the two databases
 * alternated a round at a time: statements a second on each side, their ratio, and the shared
 * buffers one run of each touched. The buffers are where the difference shows: an
 * index-only scan looks up each entry's heap page in the visibility map, and the list's rows
 * spread over a heap five times larger span five map pages instead of one
 * (docs/benchmarks.md, "The list alone and beside other lists, every point").
 *
 *   npx tsx bench/diagnosis/otherListsCost.ts [--other-records 4000000] [--rounds 3]
 */
import pg from 'pg';
import { benchArgs } from '../lib/args.js';
import { BENCH_SERVER, databaseUrl } from '../lib/database.js';
import { runEntry } from '../lib/entry.js';
import { sweepListId } from '../lib/diagnosisEnv.js';
import { median } from '../lib/stats.js';
import { cityValue, dayBelow } from '../lib/sweepShapes.js';

const args = benchArgs({
  usage: 'npx tsx bench/diagnosis/otherListsCost.ts [options]',
  about:
    "Index-only reads of the sweep's 1M list alone and beside other lists' records: statements\na second on one connection, alternated, and the shared buffers each touched.",
  options: {
    'other-records': 'N  the other-lists database to compare with (default 4000000)',
    beside: 'NAME  the database to compare with instead',
    rounds: 'N  alternated rounds (default 3)',
    seconds: 'N  seconds per statement, side and round (default 3)',
  },
});

/** The reads, each on the list's own index entries; `$1` owner, `$2` list. */
const READS: { name: string; sql: string }[] = [
  {
    name: 'walk 5,439 entries (`string =` 1 %, by n2)',
    sql: `select id from list_items where owner_id = $1 and list_key = hashtextextended($2, 0)
            and t1 = '${cityValue(0.01)}' and n2 is not null order by n2 desc, id desc limit 50`,
  },
  {
    name: 'walk ~500 entries (`date <` 10 %, by n1)',
    sql: `select id from list_items where owner_id = $1 and list_key = hashtextextended($2, 0)
            and d1 < '${dayBelow(0.1)}' and n1 is not null order by n1 desc, id desc limit 50`,
  },
  {
    name: 'count 10,000 entries (n1 < 10000)',
    sql: `select count(*) from list_items where owner_id = $1 and list_key = hashtextextended($2, 0)
            and n1 < 10000`,
  },
  {
    name: 'count 100,000 entries (n1 < 100000)',
    sql: `select count(*) from list_items where owner_id = $1 and list_key = hashtextextended($2, 0)
            and n1 < 100000`,
  },
];

interface Side {
  name: string;
  client: pg.Client;
  params: [string, string];
}

async function openSide(name: string): Promise<Side> {
  const url = databaseUrl(BENCH_SERVER, name);
  const listId = await sweepListId(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ owner_id: string }>(
    'select owner_id from list_schemas where id = $1',
    [listId],
  );
  // one plan for every run: the same choice on both sides, as the service's statements make
  await client.query('set max_parallel_workers_per_gather = 0');
  return { name, client, params: [rows[0]!.owner_id, listId] };
}

/** Runs of `sql` in `seconds`, a second. */
async function rate(side: Side, sql: string, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let runs = 0;
  while (Date.now() < end) {
    await side.client.query(sql, side.params);
    runs++;
  }
  return runs / seconds;
}

/** Shared buffers one run touched (EXPLAIN's top node). */
async function buffers(side: Side, sql: string): Promise<number> {
  const { rows } = await side.client.query<{ 'QUERY PLAN': unknown }>(
    `explain (analyze, buffers, format json) ${sql}`,
    side.params,
  );
  const [top] = rows[0]!['QUERY PLAN'] as { Plan: Record<string, number> }[];
  return (top!.Plan['Shared Hit Blocks'] ?? 0) + (top!.Plan['Shared Read Blocks'] ?? 0);
}

runEntry(async () => {
  const others = args.number('other-records', 4_000_000);
  const rounds = args.number('rounds', 3);
  const seconds = args.number('seconds', 3);
  const sides = [
    await openSide('lk_sweep'),
    await openSide(args.text('beside') ?? `lk_sweep_o${others}`),
  ];
  try {
    console.log(`| read | ${sides.map((s) => `${s.name} /s`).join(' | ')} | ratio | buffers |`);
    console.log('| --- | --- | --- | --- | --- |');
    for (const read of READS) {
      const rates: number[][] = sides.map(() => []);
      for (const side of sides) await rate(side, read.sql, 0.5); // warm
      for (let r = 0; r < rounds; r++)
        for (const [i, side] of sides.entries())
          rates[i]!.push(await rate(side, read.sql, seconds));
      const [alone, beside] = rates.map(median) as [number, number];
      const touched = await Promise.all(sides.map((side) => buffers(side, read.sql)));
      console.log(
        `| ${read.name} | ${alone.toFixed(0)} | ${beside.toFixed(0)} | ${(beside / alone).toFixed(2)} | ${touched.join(' / ')} |`,
      );
    }
  } finally {
    await Promise.all(sides.map((side) => side.client.end()));
  }
});
