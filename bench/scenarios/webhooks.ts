/** `npm run bench:webhooks`: webhook delivery under write load on its own (lib/webhooksBench.ts). */
import { benchArgs } from '../lib/args.js';
import { runWebhooksBench } from '../lib/webhooksBench.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage: 'npm run bench:webhooks -- [options]   (or npx tsx bench/scenarios/webhooks.ts [options])',
  about:
    'Webhook delivery under addListItem load: changes delivered a second, batches, and each\nchange’s lag from its commit to its arrival at a receiver answering 200 at once.',
  flags: { smoke: 'a short run, report in the temp directory' },
  options: {
    seconds: 'N  seconds of writes (default 10; 1 with --smoke)',
    webhooks: 'N  webhooks, each getting every change (default 4)',
  },
});
const smoke = args.flag('smoke');
runEntry(() =>
  runWebhooksBench({
    smoke,
    seconds: args.number('seconds', smoke ? 1 : 10),
    webhooks: args.number('webhooks', 4),
    port: 24_000 + (process.pid % 1000),
    log: (line) => console.log(line),
  }),
);
