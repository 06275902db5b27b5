/**
 * `lists import` and `lists export` as an operator runs them (the built CLI, a real file):
 * 1,000,000 records of the data set's ten typed fields into an empty list, then the list
 * exported to NDJSON and to CSV. Records a second, and the CLI's peak memory (VmHWM), which
 * must stay flat however long the file.
 *
 * `npm run bench:lists` (`--help` for its options). Results: docs/bench/lists-transfer.md and
 * .json (the temp directory with --smoke).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from '../lib/args.js';
import { ENCRYPTION_KEY, recordWithoutContact } from '../lib/dataset.js';
import { freshList } from '../lib/freshList.js';
import { peakRssMb } from '../lib/procfs.js';
import { reportDir, writeReportFiles, writtenBy } from '../lib/reportFiles.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage:
    'npm run bench:lists -- [options]   (or npx tsx bench/scenarios/listsTransfer.ts [options])',
  about:
    '`lists import` (new records, the same again by key, changed values by key) and `lists export`\n(NDJSON, CSV) through the built CLI: records a second and the CLI’s peak memory.',
  flags: { smoke: 'a small file, report in the temp directory' },
  options: { records: 'N  records in the file (default 1000000; 5000 with --smoke)' },
});
const SMOKE = args.flag('smoke');
const RECORDS = args.number('records', SMOKE ? 5_000 : 1_000_000);
const CLI = path.resolve('dist/cli/cliMain.js');

interface Run {
  seconds: number;
  peakRssMb: number;
  stdout: string;
}

/** Runs the CLI, sampling its peak resident memory from /proc until it exits. */
function cli(argv: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, ...argv], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const sample = setInterval(() => {
      try {
        peak = Math.max(peak, peakRssMb(child.pid!) || 0);
      } catch {
        // the process is gone
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(sample);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`cli ${argv.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ seconds, peakRssMb: peak, stdout });
    });
  });
}

async function main() {
  const { url, handle, listId } = await freshList(SMOKE ? 'lk_lists_smoke' : 'lk_lists');
  await handle.close();
  const dir = path.join(os.tmpdir(), `lk-lists-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const source = path.join(dir, 'records.ndjson');
  await writeRecords(source, recordWithoutContact);
  // the same records with two values changed each, found again by their key
  const changedSource = path.join(dir, 'changed.ndjson');
  await writeRecords(changedSource, (k) => {
    const record = recordWithoutContact(k);
    return { ...record, s1: `changed ${k % 200}`, n2: record.n2! + 1 };
  });
  const env = { DATABASE_URL: url, ENCRYPTION_KEY, LOG_LEVEL: 'warn' };

  const imported = await cli(
    ['lists', 'import', '--list', listId, '--file', source, '--json'],
    env,
  );
  const counts = JSON.parse(imported.stdout) as { imported: number; failed: number };
  if (counts.imported !== RECORDS) throw new Error(`imported ${imported.stdout}`);
  // an import run again over what it already wrote, as after an interruption: every record
  // is found by its key (`note`, unique per record) and left as it is
  const again = await cli(
    ['lists', 'import', '--list', listId, '--file', source, '--key', 'note', '--json'],
    env,
  );
  const againCounts = JSON.parse(again.stdout) as { unchanged: number };
  if (againCounts.unchanged !== RECORDS) throw new Error(`run again: ${again.stdout}`);
  const changed = await cli(
    ['lists', 'import', '--list', listId, '--file', changedSource, '--key', 'note', '--json'],
    env,
  );
  const changedCounts = JSON.parse(changed.stdout) as { updated: number };
  if (changedCounts.updated !== RECORDS) throw new Error(`changed: ${changed.stdout}`);
  const exports: Record<string, Run & { bytes: number }> = {};
  for (const fmt of ['ndjson', 'csv']) {
    const file = path.join(dir, `export.${fmt}`);
    const run = await cli(
      ['lists', 'export', '--list', listId, '--format', fmt, '--file', file, '--json'],
      env,
    );
    exports[fmt] = { ...run, bytes: statSync(file).size };
  }
  rmSync(dir, { recursive: true, force: true });

  const rate = (seconds: number) => RECORDS / seconds;
  const result = {
    records: RECORDS,
    import: {
      seconds: imported.seconds,
      perSecond: rate(imported.seconds),
      peakRssMb: imported.peakRssMb,
    },
    importAgain: {
      seconds: again.seconds,
      perSecond: rate(again.seconds),
      peakRssMb: again.peakRssMb,
    },
    importChanged: {
      seconds: changed.seconds,
      perSecond: rate(changed.seconds),
      peakRssMb: changed.peakRssMb,
    },
    export: Object.fromEntries(
      Object.entries(exports).map(([fmt, r]) => [
        fmt,
        {
          seconds: r.seconds,
          perSecond: rate(r.seconds),
          peakRssMb: r.peakRssMb,
          megabytes: r.bytes / 1e6,
        },
      ]),
    ),
  };
  console.log(
    `lists import: ${RECORDS} records in ${imported.seconds.toFixed(1)} s (${rate(imported.seconds).toFixed(0)}/s), peak ${imported.peakRssMb.toFixed(0)} MB`,
  );
  console.log(
    `lists import again (--key): ${again.seconds.toFixed(1)} s (${rate(again.seconds).toFixed(0)}/s), peak ${again.peakRssMb.toFixed(0)} MB`,
  );
  console.log(
    `lists import changed (--key): ${changed.seconds.toFixed(1)} s (${rate(changed.seconds).toFixed(0)}/s), peak ${changed.peakRssMb.toFixed(0)} MB`,
  );
  for (const [fmt, r] of Object.entries(exports)) {
    console.log(
      `lists export ${fmt}: ${r.seconds.toFixed(1)} s (${rate(r.seconds).toFixed(0)}/s), peak ${r.peakRssMb.toFixed(0)} MB, ${(r.bytes / 1e6).toFixed(0)} MB`,
    );
  }
  const md = [
    '# lists import / export benchmark',
    '',
    `${writtenBy('npm run bench:lists', SMOKE)}: ${RECORDS.toLocaleString('en')} records of ten typed fields, the built CLI against Postgres on this machine.`,
    '',
    '| step | time | records/s | peak memory of the CLI |',
    '| --- | --- | --- | --- |',
    `| import (NDJSON) | ${imported.seconds.toFixed(1)} s | ${rate(imported.seconds).toFixed(0)} | ${imported.peakRssMb.toFixed(0)} MB |`,
    `| import again, \`--key note\` (every record unchanged) | ${again.seconds.toFixed(1)} s | ${rate(again.seconds).toFixed(0)} | ${again.peakRssMb.toFixed(0)} MB |`,
    `| import of changed values, \`--key note\` (every record updated) | ${changed.seconds.toFixed(1)} s | ${rate(changed.seconds).toFixed(0)} | ${changed.peakRssMb.toFixed(0)} MB |`,
    ...Object.entries(exports).map(
      ([fmt, r]) =>
        `| export (${fmt}, ${(r.bytes / 1e6).toFixed(0)} MB) | ${r.seconds.toFixed(1)} s | ${rate(r.seconds).toFixed(0)} | ${r.peakRssMb.toFixed(0)} MB |`,
    ),
    '',
  ].join('\n');
  await writeReportFiles(reportDir(SMOKE), {
    'lists-transfer.md': md,
    'lists-transfer.json': JSON.stringify(result),
  });
}

/** An NDJSON file of RECORDS records, streamed. */
async function writeRecords(file: string, record: (k: number) => Record<string, unknown>) {
  const out = createWriteStream(file);
  for (let k = 0; k < RECORDS; k++) {
    if (!out.write(`${JSON.stringify(record(k))}\n`))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

runEntry(main);
