/**
 * One client sending one request after another until told to stop, each answer kept with
 * the time it was sent: what a caller sees while something else happens to the database (a
 * migration, a placement on Citus), in windows chosen afterwards.
 */
import type { HttpRequest } from './load.js';
import { quantile } from './stats.js';

export interface ProbeSample {
  /** ms since the probe started, when the request was sent */
  at: number;
  ms: number;
  /** the HTTP status, 0 when the request itself failed */
  status: number;
  /** the error's code or the body's first characters, on a failure */
  error?: string;
}

export interface Probe {
  stop(): Promise<ProbeSample[]>;
  /** ms since the probe started */
  now(): number;
}

export function startProbe(url: string, apiKey: string, next: (i: number) => HttpRequest): Probe {
  const t0 = performance.now();
  const samples: ProbeSample[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const r = next(i);
      const at = performance.now() - t0;
      try {
        const res = await fetch(`${url}${r.path}`, {
          method: r.method,
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: r.body,
        });
        const text = await res.text();
        const ok = res.status < 300;
        samples.push({
          at,
          ms: performance.now() - t0 - at,
          status: res.status,
          ...(ok ? {} : { error: errorCode(text) }),
        });
      } catch (err) {
        samples.push({ at, ms: performance.now() - t0 - at, status: 0, error: String(err) });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  })();
  return {
    now: () => performance.now() - t0,
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** A failure's body without its request id: failures of one cause group together. */
function errorCode(body: string): string {
  return body.replace(/,?"request_id":"[^"]*"/, '').slice(0, 160);
}

/** The requests sent in [from, to): how many, how many failed and why, and their latencies. */
export function window(samples: ProbeSample[], from: number, to: number) {
  const inside = samples.filter((s) => s.at >= from && s.at < to);
  const ms = inside.map((s) => s.ms).sort((a, b) => a - b);
  const failures = new Map<string, number>();
  for (const s of inside) {
    const why = s.error && `${s.status} ${s.error}`;
    if (why) failures.set(why, (failures.get(why) ?? 0) + 1);
  }
  return {
    requests: inside.length,
    failed: inside.filter((s) => s.error).length,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    max: quantile(ms, 1),
    failures: [...failures].map(([why, n]) => `${n}× ${why}`),
  };
}
