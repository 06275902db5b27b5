/**
 * Webhook delivery under load (docs/webhooks.md): one server process, one account with
 * `--webhooks` webhooks (each gets every change) pointing at a receiver in this process
 * that answers 200 at once; addListItem at 10 connections for `--seconds`. Measured at the
 * receiver: changes delivered a second (all webhooks together), batches, and the lag of each
 * change — from its commit (`occurred_at`) to its arrival — while writing and until the
 * backlog drains after the writes stop.
 *
 * Run by scenarios/webhooks.ts (`npm run bench:webhooks`) and by the suite. Results:
 * docs/bench/webhooks.md and webhooks.json (the temp directory with --smoke).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordWithoutContact } from './dataset.js';
import { freshList } from './freshList.js';
import { loadHttp, type HttpRequest } from './load.js';
import { reportDir, writeReportFiles, writtenBy } from './reportFiles.js';
import { benchServiceEnv, startServer } from './serverProcess.js';
import { quantile } from './stats.js';

export interface WebhooksBenchOptions {
  smoke: boolean;
  seconds: number;
  webhooks: number;
  port: number;
  log: (line: string) => void;
}

export async function runWebhooksBench({
  smoke: SMOKE,
  seconds: SECONDS,
  webhooks: WEBHOOKS,
  port,
  log,
}: WebhooksBenchOptions) {
  const { url, handle, account, listId } = await freshList(
    SMOKE ? 'lk_webhooks_smoke' : 'lk_webhooks',
  );

  // the receiver: every change's lag, from its commit to its arrival
  const lags: number[] = [];
  let batches = 0;
  let last = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { occurred_at: string }[];
      };
      batches++;
      for (const change of body.data) lags.push(arrived - Date.parse(change.occurred_at));
      last = arrived;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const server = await startServer({
    env: { ...benchServiceEnv(url), WEBHOOK_ALLOW_PRIVATE: 'true' },
    port,
  });
  try {
    for (let i = 0; i < WEBHOOKS; i++) {
      const res = await fetch(`${server.url}/api/v1/createWebhook`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.api_key}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ url: hookUrl }),
      });
      if (res.status !== 201) throw new Error(`createWebhook: ${res.status} ${await res.text()}`);
    }
    let k = 0;
    const next = (): HttpRequest => {
      return {
        method: 'POST',
        path: '/api/v1/addListItem',
        body: JSON.stringify({ schema_id: listId, data: recordWithoutContact(k++) }),
      };
    };
    const started = Date.now();
    const writes = await loadHttp(server.url, account.api_key, next, 10, SECONDS);
    const stopped = Date.now();
    const whileWriting = lags.length;
    const expected = writes.requests * WEBHOOKS;
    for (const deadline = Date.now() + 120_000; lags.length < expected && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (lags.length < expected) throw new Error(`only ${lags.length} of ${expected} delivered`);
    const sorted = [...lags].sort((a, b) => a - b);
    const result = {
      seconds: SECONDS,
      webhooks: WEBHOOKS,
      writesPerSecond: writes.rps,
      deliveredPerSecond: lags.length / ((last - started) / 1000),
      deliveredWhileWriting: whileWriting / ((stopped - started) / 1000),
      batches,
      lagMs: { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1)! },
      drainMs: last - stopped,
    };
    log(
      `  webhooks: ${result.writesPerSecond.toFixed(0)} writes/s, ${result.deliveredPerSecond.toFixed(0)} changes delivered/s over ${WEBHOOKS} webhooks (${batches} batches), lag p50 ${result.lagMs.p50} ms p99 ${result.lagMs.p99} ms max ${result.lagMs.max} ms, drained ${result.drainMs} ms after the writes stopped`,
    );
    await writeReport(result, SMOKE);
  } finally {
    await server.stop();
    receiver.close();
    await handle.close();
  }
}

async function writeReport(
  r: Record<string, unknown> & { lagMs: Record<string, number> },
  SMOKE: boolean,
) {
  const md = [
    '# Webhook delivery benchmark',
    '',
    `${writtenBy('npm run bench:webhooks', SMOKE)}: addListItem at 10 connections for ${String(r.seconds)} s, ${String(r.webhooks)} webhooks each getting every change, a receiver answering 200 at once.`,
    '',
    '| writes/s | changes delivered/s | batches | lag p50 | lag p99 | lag max | drained after the writes |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${Number(r.writesPerSecond).toFixed(0)} | ${Number(r.deliveredPerSecond).toFixed(0)} | ${String(r.batches)} | ${r.lagMs.p50} ms | ${r.lagMs.p99} ms | ${r.lagMs.max} ms | ${String(r.drainMs)} ms |`,
    '',
  ].join('\n');
  await writeReportFiles(reportDir(SMOKE), {
    'webhooks.md': md,
    'webhooks.json': JSON.stringify(r),
  });
}
