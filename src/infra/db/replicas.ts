import type { Logger } from 'pino';
import { connectPostgres, queryRows, type DatabaseHandle, type SessionOptions } from './client.js';
import { sql } from 'drizzle-orm';

/**
 * Streaming replicas the read-only methods may read from (docs/scaling.md, "Read replicas").
 * Each replica's replay position is polled in the background, so choosing one costs no
 * round trip: a read goes to a replica that is up, not paused, and has replayed at least
 * up to the caller's last write; otherwise to the primary.
 */
export interface ReplicaState {
  /** 1, 2, … in the order of DATABASE_REPLICA_URLS (URLs carry passwords: never shown) */
  name: string;
  up: boolean;
  paused: boolean;
  /** the last WAL position replayed, as a comparable key (walKey) */
  replayed: string | undefined;
  /** bytes of WAL the replica is behind the primary, at the last poll */
  lagBytes: number | undefined;
  /** reads this replica served, and reads it failed (then served by the primary) */
  reads: number;
  failures: number;
}

export interface Replica {
  state: ReplicaState;
  handle: DatabaseHandle;
}

/** How often each replica's replay position is read (and how stale a choice can be). */
const POLL_MS = 100;
/** A replica that has not answered a poll for this long is treated as down. */
const POLL_TIMEOUT_MS = 1000;

/**
 * `X/Y` (pg_lsn text) as 16 hex digits, so that comparing two keys as strings compares the
 * positions — also in Redis, where the last write's position is kept (lastWrite.ts).
 */
export function walKey(lsn: string): string {
  const [high = '0', low = '0'] = lsn.split('/');
  return high.padStart(8, '0').toUpperCase() + low.padStart(8, '0').toUpperCase();
}

const bytesOf = (key: string) => BigInt(`0x${key}`);

export class ReplicaSet {
  readonly replicas: Replica[];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    urls: string[],
    private readonly primary: DatabaseHandle,
    private readonly log: Pick<Logger, 'error' | 'warn'>,
    options: SessionOptions,
  ) {
    this.replicas = urls.map((url, i) => ({
      state: {
        name: String(i + 1),
        up: false,
        paused: false,
        replayed: undefined,
        lagBytes: undefined,
        reads: 0,
        failures: 0,
      },
      handle: connectPostgres(url, log, { max: 10, ...options }),
    }));
  }

  /** Starts polling; the first poll has run when this resolves. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  /**
   * A replica that has replayed `atLeast` (a walKey; undefined: any position), round robin
   * among those that qualify; undefined: read from the primary.
   */
  pick(atLeast: string | undefined): Replica | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const replica = this.replicas[(this.next + i) % n]!;
      const { up, paused, replayed } = replica.state;
      if (!up || paused || replayed === undefined) continue;
      if (atLeast !== undefined && replayed < atLeast) continue;
      this.next = (this.next + i + 1) % n;
      return replica;
    }
    return undefined;
  }

  /** A read on `replica` failed: it is skipped until its next poll succeeds. */
  failed(replica: Replica, err: unknown): void {
    replica.state.failures++;
    if (replica.state.up)
      this.log.warn({ err, replica: replica.state.name }, 'replica read failed');
    replica.state.up = false;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.handle.close()));
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const head = await this.primaryPosition();
      await Promise.all(this.replicas.map((replica) => this.pollOne(replica, head)));
    } finally {
      this.polling = false;
    }
  }

  private async primaryPosition(): Promise<string | undefined> {
    try {
      const [row] = await queryRows<{ lsn: string }>(
        this.primary.db,
        sql`select pg_current_wal_lsn()::text as lsn`,
      );
      return row && walKey(row.lsn);
    } catch {
      return undefined;
    }
  }

  private async pollOne(replica: Replica, head: string | undefined): Promise<void> {
    const { state } = replica;
    try {
      const [row] = await withTimeout(
        queryRows<{ lsn: string | null; paused: boolean }>(
          replica.handle.db,
          sql`select pg_last_wal_replay_lsn()::text as lsn, pg_is_wal_replay_paused() as paused`,
        ),
        POLL_TIMEOUT_MS,
      );
      // null: not a standby (or nothing replayed yet) — never a place to read from
      state.replayed = row?.lsn ? walKey(row.lsn) : undefined;
      state.paused = row?.paused ?? false;
      state.lagBytes =
        head && state.replayed
          ? Math.max(0, Number(bytesOf(head) - bytesOf(state.replayed)))
          : undefined;
      const wasUp = state.up;
      state.up = state.replayed !== undefined;
      if (state.up && !wasUp && state.failures > 0) {
        this.log.warn({ replica: state.name }, 'replica is back');
      }
    } catch (err) {
      if (state.up) this.log.error({ err, replica: state.name }, 'replica is down');
      state.up = false;
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
