/**
 * Time to the browser console's first grid page on a big list (issue 32: a 1,000,000-record
 * list opens at its first page in under 1 s). Each run is a fresh Chromium context (empty
 * cache, so the bundle is downloaded too) that opens `/console#/lists/<id>` signed in;
 * the page marks `console:first-grid` when the first page of records is on screen, and the
 * figure is that mark's time from the start of navigation. Then the same list is opened again
 * from the console's list of lists (page and bundle loaded): from the click to the mark.
 *
 *   npm run bench:console -- [--records 1000000] [--runs 5] [--timeline]
 *
 * `--timeline` prints each run's requests and long frames (name, start, duration in ms).
 *
 * The list is built once by the bench's data set code (dataset.ts) in its own database,
 * lk_bench_console_<records>, and reused by later runs.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { flag, option } from './args.js';
import { BENCH_SERVER, databaseUrl } from './database.js';
import { ensureDataset } from './dataset.js';
import { benchServiceEnv, startServer } from './server.js';

const RECORDS = Number(option('records') ?? 1_000_000);
const RUNS = Number(option('runs') ?? 5);
const DB_NAME = `lk_bench_console_${RECORDS}`;
const PORT = 21_000 + 8 * (process.pid % 1000) + 1;
const log = (line: string) => console.log(line);

/** CPU seconds (user + system) used so far by every process below `root` (Linux /proc). */
function cpuSeconds(root: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the fields after the command's closing parenthesis: state, ppid, … utime (14), stime (15)
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      stats.set(Number(entry), {
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // ended meanwhile
    }
  }
  const below = (pid: number): number =>
    [...stats]
      .filter(([, s]) => s.ppid === pid)
      .reduce((sum, [child, s]) => sum + s.ticks + below(child), 0);
  return below(root) / 100; // USER_HZ
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
  const times: number[] = [];
  const cpus: number[] = [];
  const inApps: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({
        content: `sessionStorage.setItem('listkeeper.console.apiKey', ${JSON.stringify(ds.apiKey)})`,
      });
      const page = await context.newPage();
      const cpuBefore = cpuSeconds(process.pid);
      await page.goto(`${server.url}/console#/lists/${ds.lists[RECORDS]}`);
      const ms = await page.evaluate(async () => {
        for (;;) {
          const [mark] = performance.getEntriesByName('console:first-grid');
          if (mark) return mark.startTime;
          await new Promise((r) => setTimeout(r, 5));
        }
      });
      const cpu = cpuSeconds(process.pid) - cpuBefore;
      cpus.push(cpu);
      if (flag('timeline'))
        log(
          JSON.stringify(
            await page.evaluate(() =>
              performance
                .getEntries()
                .map((e) => [e.name.slice(-40), Math.round(e.startTime), Math.round(e.duration)]),
            ),
          ),
        );
      const rows = await page.locator('table.grid tbody tr').count();
      const status = await page.locator('.page-status').textContent();
      // The same list opened again from the console's list of lists: the page and bundle
      // are loaded, only the two API calls and the drawing remain.
      await page.getByRole('link', { name: '← All lists' }).click();
      const link = page.getByRole('link', { name: `size ${RECORDS}` });
      await link.waitFor();
      const inApp = await link.evaluate(async (element) => {
        const before = performance.getEntriesByName('console:first-grid').length;
        const start = performance.now();
        (element as unknown as { click(): void }).click();
        for (;;) {
          const marks = performance.getEntriesByName('console:first-grid');
          if (marks.length > before) return marks.at(-1)!.startTime - start;
          await new Promise((r) => setTimeout(r, 5));
        }
      });
      log(
        `run ${run + 1}: first grid after ${ms.toFixed(0)} ms, ${(cpu * 1000).toFixed(0)} ms of CPU ` +
          `(Chromium and the service; ${rows} rows; ${status}); opened from the lists: ${inApp.toFixed(0)} ms`,
      );
      times.push(ms);
      inApps.push(inApp);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  log(
    `${RECORDS} records: first grid median ${median(times).toFixed(0)} ms ` +
      `(max ${Math.max(...times).toFixed(0)} ms), CPU used median ${(median(cpus) * 1000).toFixed(0)} ms; ` +
      `opened from the lists median ${median(inApps).toFixed(0)} ms (max ${Math.max(...inApps).toFixed(0)} ms); ` +
      `over ${RUNS} cold-cache runs; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
  );
}

await main();
