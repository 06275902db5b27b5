/**
 * Time to the browser console's first grid page on a big list (a 1,000,000-record list should
 * open at its first page in under 1 s). Each run is a fresh Chromium context (empty cache, so
 * the page and bundle are downloaded too) that opens `/console#/lists/<id>` signed in; the
 * page marks `console:first-grid` once the first page of records is on screen, and the figure
 * is that mark's time from the start of navigation. Then the same list is opened again from
 * the console's list of lists (page and bundle loaded): from the click to the mark.
 *
 * `npm run bench:console` (`--help` for its options). Printed; figures in docs/console.md.
 * The list is built once by the data set code (lib/dataset.ts) in its own database,
 * lk_bench_console_<records>, and reused by later runs.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { benchArgs } from '../lib/args.js';
import { BENCH_SERVER, databaseUrl } from '../lib/database.js';
import { ensureDataset } from '../lib/dataset.js';
import { runEntry } from '../lib/entry.js';
import { cpuTicks, TICKS_PER_SECOND } from '../lib/procfs.js';
import { benchServiceEnv, startServer } from '../lib/serverProcess.js';
import { median } from '../lib/stats.js';

const args = benchArgs({
  usage: 'npm run bench:console -- [options]',
  about:
    "The browser console's first grid on a big list, in fresh Chromium contexts, and the CPU\nChromium and the service used for it.",
  flags: { timeline: "print each run's requests and long frames (name, start, duration in ms)" },
  options: {
    records: 'N  records in the list (default 1000000)',
    runs: 'N  fresh-context runs (default 5)',
  },
});
const RECORDS = args.number('records', 1_000_000);
const RUNS = args.number('runs', 5);
const DB_NAME = `lk_bench_console_${RECORDS}`;
const PORT = 3919;
const MARK = 'console:first-grid';
const log = (line: string) => console.log(line);

/** CPU seconds used so far by every process below `root` (Chromium's and the service's). */
function cpuBelow(root: number): number {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const below = (pid: number): number =>
    [...parent]
      .filter(([, ppid]) => ppid === pid)
      .reduce((sum, [child]) => {
        try {
          return sum + cpuTicks(child).ticks + below(child);
        } catch {
          return sum + below(child);
        }
      }, 0);
  return below(root) / TICKS_PER_SECOND;
}

/** ms from `since` (page time) to the next `console:first-grid` mark after the `before` first ones. */
function nextMark(page: Page, before: number, since: number): Promise<number> {
  return page.evaluate(
    async ([mark, count, start]) => {
      for (;;) {
        const marks = performance.getEntriesByName(mark);
        if (marks.length > count) return marks.at(-1)!.startTime - start;
        await new Promise((r) => setTimeout(r, 5));
      }
    },
    [MARK, before, since] as const,
  );
}

async function main() {
  const ds = await ensureDataset(
    BENCH_SERVER,
    DB_NAME,
    { sizes: [RECORDS], noiseLists: 0, noiseSize: 0, contacts: 1000, otherContacts: 0 },
    log,
  );
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  const server = await startServer({
    env: benchServiceEnv(databaseUrl(BENCH_SERVER, DB_NAME)),
    port: PORT,
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const cold: number[] = [];
  const cpus: number[] = [];
  const again: number[] = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({
        content: `sessionStorage.setItem('listkeeper.console.apiKey', ${JSON.stringify(ds.apiKey)})`,
      });
      const page = await context.newPage();
      const cpuBefore = cpuBelow(process.pid);
      await page.goto(`${server.url}/console#/lists/${ds.lists[RECORDS]}`);
      const ms = await nextMark(page, 0, 0);
      const cpu = cpuBelow(process.pid) - cpuBefore;
      if (args.flag('timeline')) {
        const entries = await page.evaluate(() =>
          performance
            .getEntries()
            .map((e) => [e.name, Math.round(e.startTime), Math.round(e.duration)]),
        );
        log(JSON.stringify(entries));
      }
      const status = await page.locator('.page-status').textContent();

      await page.getByRole('link', { name: '← All lists' }).click();
      const link = page.getByRole('link', { name: `size ${RECORDS}` });
      await link.waitFor();
      const start = await page.evaluate(() => performance.now());
      await link.click();
      const inApp = await nextMark(page, 1, start);
      log(
        `run ${run}: first grid after ${ms.toFixed(0)} ms, ${(cpu * 1000).toFixed(0)} ms of CPU ` +
          `(${status}); opened again from the lists: ${inApp.toFixed(0)} ms`,
      );
      cold.push(ms);
      cpus.push(cpu);
      again.push(inApp);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  log(
    `${RECORDS} records, ${RUNS} fresh contexts: first grid median ${median(cold).toFixed(0)} ms ` +
      `(max ${Math.max(...cold).toFixed(0)}), CPU median ${(median(cpus) * 1000).toFixed(0)} ms; ` +
      `opened again median ${median(again).toFixed(0)} ms (max ${Math.max(...again).toFixed(0)}); ` +
      `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
  );
}

runEntry(main);
