#!/usr/bin/env node
// `npx listkeeper …` and `npm run cli -- …`: the freshness check and the CLI share one Node
// process, so a call on an up-to-date tree costs one process start, not two.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { ensureBuild } from '../scripts/ensure-build.mjs';

const code = await ensureBuild();
if (code !== 0) process.exit(code);
// The build's bundle of the CLI (scripts/cli-bundle.mjs) loads in a third of the time of the
// compiled files it is made from; a dist/ built without it (an older build run without the
// compiler installed) still has those. Either reads process.argv.slice(2), the same here.
const bundled = new URL('../dist/cli-bundle/cliMain.js', import.meta.url);
await import(existsSync(bundled) ? bundled.href : '../dist/cli/cliMain.js');
