/**
 * The instrumented run: one request of each scenario through the service's own app
 * (in-process, same database), recording every Postgres query it sends and counting its
 * Redis commands. The recording is both the "raw" workload (the same SQL, replayed on a
 * plain pg pool by load.ts) and the round-trip count of the benchmark's target.
 *
 * A round trip is counted when a command is sent while none of that store's commands is
 * outstanding: commands sent together (Promise.all, ioredis pipelining) overlap and count
 * once, a command sent after awaiting the previous answer counts again. This is the number
 * of sequential waits a request spends on each store, which is what costs latency.
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import type { ApiMethod } from '../../src/methods/method.js';
import { methods } from '../../src/methods/methodRegistry.js';

export interface CapturedQuery {
  /** which pg client sent it (queries of one transaction share a client) */
  client: number;
  /** queries in the same stage were in flight together */
  stage: number;
  text: string;
  values: unknown[] | undefined;
  name: string | undefined;
  rowMode: string | undefined;
}

export interface StoreCounts {
  commands: number;
  roundTrips: number;
}

export interface Capture {
  queries: CapturedQuery[];
  /** before the method's handler runs: auth and rate limiting */
  auth: { pg: StoreCounts; redis: StoreCounts };
  /** the handler */
  handler: { pg: StoreCounts; redis: StoreCounts };
}

type Phase = 'auth' | 'handler';
let recording: Capture | undefined;
let phase: Phase = 'auth';
const inflight = { pg: 0, redis: 0 };
let stage = -1;
const clientIds = new WeakMap<object, number>();
let nextClient = 0;

function count(store: 'pg' | 'redis'): boolean {
  if (!recording) return false;
  const counts = recording[phase][store];
  counts.commands++;
  const fresh = inflight[store] === 0;
  if (fresh) counts.roundTrips++;
  inflight[store]++;
  return fresh;
}

let installed = false;

/** Wraps pg's Client.query, ioredis' sendCommand and each method's handler. Idempotent. */
export function installCapture(): void {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    if (!recording) return query.apply(this, args);
    const fresh = count('pg');
    if (fresh) stage++;
    const first = args[0];
    const config = (typeof first === 'object' && first !== null ? first : {}) as {
      text?: string;
      values?: unknown[];
      name?: string;
      rowMode?: string;
    };
    if (!clientIds.has(this)) clientIds.set(this, nextClient++);
    recording.queries.push({
      client: clientIds.get(this)!,
      stage,
      text: typeof first === 'string' ? first : (config.text ?? ''),
      values: Array.isArray(args[1]) ? (args[1] as unknown[]) : config.values,
      name: config.name,
      rowMode: config.rowMode,
    });
    const done = () => {
      inflight.pg = Math.max(0, inflight.pg - 1);
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...cb: unknown[]) => {
        done();
        return (last as (...a: unknown[]) => unknown)(...cb);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') result.then(done, done);
    else done();
    return result;
  } as typeof pg.Client.prototype.query;

  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (this: Redis, ...args: Parameters<typeof send>) {
    const counted = recording !== undefined;
    if (counted) count('redis');
    const result = send.apply(this, args) as Promise<unknown>;
    if (counted) {
      const done = () => {
        inflight.redis = Math.max(0, inflight.redis - 1);
      };
      result.then(done, done);
    }
    return result as ReturnType<typeof send>;
  } as typeof send;

  for (const method of methods.values() as Iterable<ApiMethod>) {
    // Either handler signature: the wrapper only marks the phase and passes everything on.
    const wrapped = method as unknown as { handle: (...args: unknown[]) => Promise<unknown> };
    const handle = wrapped.handle.bind(method);
    wrapped.handle = (...args) => {
      phase = 'handler';
      return handle(...args);
    };
  }
}

const zero = () => ({ commands: 0, roundTrips: 0 });

/** Records what `run` (one request) sends to Postgres and Redis. */
export async function capture(run: () => Promise<void>): Promise<Capture> {
  recording = {
    queries: [],
    auth: { pg: zero(), redis: zero() },
    handler: { pg: zero(), redis: zero() },
  };
  phase = 'auth';
  stage = -1;
  try {
    await run();
    // a query still in flight when the response left (none expected) is not waited for
    return recording;
  } finally {
    recording = undefined;
    inflight.pg = 0;
    inflight.redis = 0;
  }
}
