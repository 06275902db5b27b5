import type { Logger } from 'pino';
import type { LayoutCache } from '../changes/layouts.js';
import type { Database } from '../infra/db/client.js';
import type { FieldCipher } from '../lists/encryption/cipher.js';
import type { WebhookStats } from './stats.js';

export interface DeliveryDeps {
  db: Database;
  cipher: FieldCipher;
  layouts: LayoutCache;
  clock: () => Date;
  stats: WebhookStats;
}

export interface DeliveryOptions {
  /** names this process in leases (host and pid) */
  instance: string;
  allowPrivate: boolean;
  /** how long a claimed webhook stays this instance's; longer than `timeoutMs` */
  leaseMs: number;
  /** a receiver's answer must come within this */
  timeoutMs?: number;
  /** deliveries at once per process: a slow receiver holds one slot, never the rest */
  concurrency?: number;
  /** how often due webhooks are looked for */
  pollMs?: number;
  /** how soon a webhook with nothing new is looked at again */
  idleMs?: number;
  random?: () => number;
}

/** What one delivery attempt works with: the worker's dependencies and settled options. */
export interface DeliveryContext {
  deps: DeliveryDeps;
  log: Pick<Logger, 'warn' | 'error'>;
  options: Required<DeliveryOptions>;
}

/** The options with their defaults filled in. */
export function settleOptions(options: DeliveryOptions): Required<DeliveryOptions> {
  return {
    instance: options.instance,
    allowPrivate: options.allowPrivate,
    leaseMs: options.leaseMs,
    timeoutMs: options.timeoutMs ?? 10_000,
    concurrency: options.concurrency ?? 8,
    pollMs: options.pollMs ?? 500,
    idleMs: options.idleMs ?? 1_000,
    random: options.random ?? Math.random,
  };
}
