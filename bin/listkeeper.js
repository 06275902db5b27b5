#!/usr/bin/env node
// `npx listkeeper …` and `npm run cli -- …`: the freshness check and the CLI share one Node
// process, so a call on an up-to-date tree costs one process start, not two.
import process from 'node:process';
import { ensureBuild } from '../scripts/ensure-build.mjs';

const code = await ensureBuild();
if (code !== 0) process.exit(code);
// The CLI reads process.argv.slice(2), which is the same here as for `node dist/cli/cliMain.js`.
await import('../dist/cli/cliMain.js');
