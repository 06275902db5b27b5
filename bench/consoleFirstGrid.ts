/**
 * Time to the browser console's first grid page on a big list (issue 32: a 1,000,000-record
 * list opens at its first page in under 1 s). Each run is a fresh Chromium context (empty
 * cache, so the bundle is downloaded too) that opens `/console#/lists/<id>` signed in;
 * the page marks `console:first-grid` when the first page of records is on screen, and the
 * figure is that mark's time from the start of navigation.
 *
 *   npm run bench:console -- [--records 1000000] [--runs 5] [--timeline]
 *
 * `--timeline` prints each run's requests and long frames (name, start, duration in ms).
 *
 * The list is built once by the bench's data set code (dataset.ts) in its own database,
 * lk_bench_console_<records>, and reused by later runs.
 */
import { execFileSync } from 'node:child_process';
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
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({
        content: `sessionStorage.setItem('listkeeper.console.apiKey', ${JSON.stringify(ds.apiKey)})`,
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/console#/lists/${ds.lists[RECORDS]}`);
      const ms = await page.evaluate(async () => {
        for (;;) {
          const [mark] = performance.getEntriesByName('console:first-grid');
          if (mark) return mark.startTime;
          await new Promise((r) => setTimeout(r, 5));
        }
      });
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
      log(`run ${run + 1}: first grid after ${ms.toFixed(0)} ms (${rows} rows; ${status})`);
      times.push(ms);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const sorted = [...times].sort((a, b) => a - b);
  log(
    `${RECORDS} records: first grid median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, ` +
      `max ${sorted.at(-1)!.toFixed(0)} ms over ${RUNS} cold-cache runs`,
  );
}

await main();
