/**
 * A/B of two server commands on first-time reads: one shape of the sweep (bench/lib/sweepShapes.ts)
 * on its 1M list (or `--size`'s), each request with a bound never sent before (the share scaled by 0.5–1.5), so
 * every read counts or reads the band counts, never a remembered total. Paired rounds as
 * `ab.ts` runs them (docs/benchmarks.md, "How it works").
 *
 *   npx tsx bench/diagnosis/firstTimeAb.ts 'number <' 0.001 --a '<other build>/dist/main.js'
 *
 * With `--writes-before N` each side's turn starts N writes after the list's kept counts were
 * last brought up to date (updateListItems of a field no shape filters on, in batches of
 * 1,000), as a busy list's reads find them.
 * Uses the `lk_sweep` database of `npm run bench:sweep` and Redis database 7.
 */
import pg from 'pg';
import qs from 'qs';
import { benchArgs } from '../lib/args.js';
import { benchServerEnv, firstTimeScale, sweepListId } from '../lib/diagnosisEnv.js';
import { loadHttp } from '../lib/load.js';
import { printPairedRounds } from '../lib/pairedRounds.js';
import { startServer, startServers } from '../lib/serverProcess.js';
import { waitForKeptCountWork } from '../lib/sweepKeptCounts.js';
import { SHAPES } from '../lib/sweepShapes.js';

const args = benchArgs({
  usage: "npx tsx bench/diagnosis/firstTimeAb.ts '<shape>' <share> --a CMD --b CMD [options]",
  about:
    'Two server commands (what follows `node`) on first-time reads of one sweep shape at one\nshare of the 1M list, in paired rounds: each round and the median of the ratios B/A.',
  positionals: `<shape: ${SHAPES.map((s) => s.name).join(' | ')}> <share, e.g. 0.001>`,
  options: {
    a: "CMD  side A (default 'dist/main.js')",
    b: "CMD  side B (default 'dist/main.js')",
    rounds: 'N  paired rounds (default 5)',
    seconds: 'N  seconds per side and round (default 3)',
    size: 'N  the list of that many records (default the largest)',
    'writes-before':
      "N  updates of the list before each side's turn, once its kept counts are idle (default 0)",
  },
});
const [shapeName, shareText] = args.positionals;
const shape = SHAPES.find((s) => s.name === shapeName);
const share = Number(shareText);
if (!shape || !(share > 0 && share <= 1)) throw new Error(`usage: ${args.positionals.join(' ')}`);
const { apiKey, env } = await benchServerEnv('sweep');
const size = args.text('size');
const listId = await sweepListId(env.DATABASE_URL!, size ? Number(size) : undefined);
const servers = await startServers(
  (['a', 'b'] as const).map(
    (side, n) => () =>
      startServer({ args: (args.text(side) ?? 'dist/main.js').split(' '), env, port: 20_930 + n }),
  ),
);
let sent = 0;
/** a new bound each request (firstTimeScale) */
const next = () => {
  const scale = firstTimeScale(sent++);
  const query = {
    schema_id: listId,
    filters: shape.filters(share, scale),
    order_by: shape.orderBy,
  };
  return { method: 'GET' as const, path: `/api/v1/getListItems?${qs.stringify(query)}` };
};
const seconds = args.number('seconds', 3);
const writesBefore = args.number('writes-before', 0);
const load = (url: string, s: number) => loadHttp(url, apiKey, next, 10, s);
let written = 0;
/** `writesBefore` updates through `url`, after the kept counts' background work has ended */
async function writeFirst(url: string) {
  if (writesBefore === 0) return;
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 1 });
  try {
    await waitForKeptCountWork(pool);
    const ids = (
      await pool.query<{ id: string }>(
        `select id from list_items
         where owner_id = (select owner_id from list_schemas where id = $1)
           and list_key = hashtextextended($1, 0) limit $2`,
        [listId, writesBefore],
      )
    ).rows.map((r) => r.id);
    for (let from = 0; from < ids.length; from += 1000) {
      const items = ids
        .slice(from, from + 1000)
        .map((id) => ({ item_id: id, data: { note: `written ${written++}` } }));
      const res = await fetch(`${url}/api/v1/updateListItems`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ schema_id: listId, items }),
      });
      if (!res.ok) throw new Error(`updateListItems answered ${res.status}`);
    }
  } finally {
    await pool.end();
  }
}
const turn = async (url: string) => {
  await writeFirst(url);
  return load(url, seconds);
};
try {
  for (const server of servers) await load(server.url, 1);
  await printPairedRounds(
    args.number('rounds', 5),
    () => turn(servers[0]!.url),
    () => turn(servers[1]!.url),
    `${shape.name} ${share}: `,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
