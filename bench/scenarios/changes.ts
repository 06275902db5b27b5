/** `npm run bench:changes`: the change feed's costs on their own (lib/changesBench.ts). */
import { benchArgs } from '../lib/args.js';
import { runChangesBench } from '../lib/changesBench.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage: 'npm run bench:changes -- [options]   (or npx tsx bench/scenarios/changes.ts [options])',
  about:
    'Write throughput with the change feed against without it, bytes per change, getChanges at\nthe head with 10,000 and 1,000,000 changes stored, and reading through a backlog.',
  flags: { smoke: 'small data, short rounds, report in the temp directory' },
  options: { seconds: 'N  seconds per measured round (default 5; 1 with --smoke)' },
});
const smoke = args.flag('smoke');
runEntry(() =>
  runChangesBench({
    smoke,
    seconds: args.number('seconds', smoke ? 1 : 5),
    port: 23_000 + (process.pid % 1000),
    log: (line) => console.log(line),
  }),
);
