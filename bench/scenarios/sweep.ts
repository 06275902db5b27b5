/**
 * `npm run bench:sweep`: the selectivity sweep on its own (lib/sweepBench.ts says what it
 * measures). Results: docs/bench/sweep.md and sweep.json; the temp directory with --smoke or
 * with a part of the sweep (--cases, --selectivities) or other lists' records (--other-records), which is not the sweep docs/bench holds.
 */
import { execFileSync } from 'node:child_process';
import { benchArgs } from '../lib/args.js';
import { runEntry } from '../lib/entry.js';
import { reportDir } from '../lib/reportFiles.js';
import { CASES, runSweep, SELECTIVITIES, type Case } from '../lib/sweepBench.js';
import { SHAPES } from '../lib/sweepShapes.js';

const args = benchArgs({
  usage: 'npm run bench:sweep -- [options]   (or npx tsx bench/scenarios/sweep.ts [options])',
  about:
    'getListItems with an exact total at every filter selectivity, against a plain-table twin\nserved through HTTP (bench/servers/twinServer.ts) at the same concurrency.',
  flags: { smoke: 'one tiny list, short points, report in the temp directory' },
  options: {
    sizes: 'N,N,…  list sizes (default 10000,100000,1000000; 2000 with --smoke)',
    seconds: 'N  seconds per point (default 3; 0.5 with --smoke)',
    cases: `LIST  a part of ${CASES.join(',')} (default all)`,
    selectivities: `LIST  a part of ${SELECTIVITIES.join(',')} (default all)`,
    shapes: `LIST  a part of ${SHAPES.map((shape) => shape.name).join(',')} (default all)`,
    'other-records':
      'N  records of other lists of other owners in the same table and in each twin (default 0; its own database)',
    port: 'N  the first of the two servers’ ports (default from the process id)',
  },
});
const smoke = args.flag('smoke');
/** An option's list, each item one of `all`: undefined when the option is not given. */
function partOf<T>(
  option: 'cases' | 'selectivities' | 'shapes',
  all: readonly T[],
  parse: (text: string) => T,
) {
  const given = args.list(option)?.map(parse);
  const unknown = given?.filter((x) => !all.includes(x)) ?? [];
  if (unknown.length > 0) {
    throw new Error(`--${option} takes ${all.join(',')}; not ${unknown.join(',')}`);
  }
  return given;
}
const cases = partOf<string>('cases', CASES, String);
const selectivities = partOf<number>('selectivities', SELECTIVITIES, Number);
const shapes = partOf<string>(
  'shapes',
  SHAPES.map((shape) => shape.name),
  String,
);
const subset =
  cases !== undefined ||
  selectivities !== undefined ||
  shapes !== undefined ||
  args.text('other-records') !== undefined;
// the twin's server runs compiled, as dist/main.js does
execFileSync('npx', ['tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit' });
runEntry(() =>
  runSweep({
    sizes: (args.list('sizes') ?? (smoke ? ['2000'] : ['10000', '100000', '1000000'])).map(Number),
    seconds: args.number('seconds', smoke ? 0.5 : 3),
    smoke,
    port: args.number('port', 22_000 + 8 * (process.pid % 1000)),
    outDir: reportDir(smoke || subset),
    log: (line) => console.log(line),
    cases: cases as Case[] | undefined,
    selectivities,
    shapes,
    otherRecords: args.number('other-records', 0),
  }),
);
