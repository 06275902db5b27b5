import type { Redis } from 'ioredis';
import { WINDOW_MS, windowStart, type RateDecision } from './limiter.js';
import { decideOnTtl, windowKey } from './redisLimiter.js';

/**
 * Everything an authenticated request needs from Redis, in one atomic round trip: the
 * version key (the shared key epoch), this window's failed attempts of the client, and
 * the account's hit, counted unless the client is at the brake or the version is not the
 * one the caller expected (then the caller re-checks the key first and counts after) —
 * and, with read replicas, the WAL position of the account's last write ('' for none).
 * KEYS: version, failures[, account[, last write]]. ARGV: brake, window TTL ms, expected
 * version or ''.
 */
const COUNT_SCRIPT = `
local version = redis.call('GET', KEYS[1]) or '0'
local failures = tonumber(redis.call('GET', KEYS[2]) or '0')
if #KEYS < 3 or failures >= tonumber(ARGV[1]) or (ARGV[3] ~= '' and ARGV[3] ~= version) then
  return {version, failures}
end
local count = redis.call('INCR', KEYS[3])
if count == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
local lastWrite = ''
if #KEYS >= 4 then lastWrite = redis.call('GET', KEYS[4]) or '' end
return {version, failures, count, redis.call('PTTL', KEYS[3]), lastWrite}
`;

export interface CountQuery {
  /** the client's failed-attempt key (only read here: failures are counted by the brake) */
  failuresKey: string;
  /** the account's key; absent: count nothing (the key's owner cannot be admitted anyway) */
  accountKey?: string;
  /** count only while the version still has this value */
  expectVersion?: string;
  /** read replicas: the key of the account's last write position (lastWrite.ts) */
  lastWriteKey?: string;
}

export interface RequestCounts {
  version: string;
  /** the client's failed attempts in this window, before this request */
  failures: number;
  /** the account's decision, when the hit was counted */
  rate?: RateDecision;
  /** with `lastWriteKey`, when the hit was counted: the last write's position, '' for none */
  lastWrite?: string;
}

type RedisWithCount = Redis & {
  lkRequestCount(
    ...args: Array<string | number>
  ): Promise<[string, number, number?, number?, string?]>;
};

export class RequestCounter {
  private readonly redis: RedisWithCount;

  constructor(
    redis: Redis,
    private readonly options: {
      limit: number;
      /** failed attempts at which the client is braked */
      brake: number;
      prefix: string;
      versionKey: string;
    },
  ) {
    // numberOfKeys omitted: the key count is the first argument (two or three keys).
    if (!('lkRequestCount' in redis)) redis.defineCommand('lkRequestCount', { lua: COUNT_SCRIPT });
    this.redis = redis as RedisWithCount;
  }

  async count(query: CountQuery, nowMs: number): Promise<RequestCounts> {
    const { limit, brake, prefix, versionKey } = this.options;
    const start = windowStart(nowMs);
    const msLeft = start + WINDOW_MS - nowMs;
    const keys = [versionKey, windowKey(prefix, query.failuresKey, start)];
    if (query.accountKey) keys.push(windowKey(prefix, query.accountKey, start));
    if (query.accountKey && query.lastWriteKey) keys.push(query.lastWriteKey);
    const [version, failures, count, ttl, lastWrite] = await this.redis.lkRequestCount(
      keys.length,
      ...keys,
      brake,
      msLeft + 1000,
      query.expectVersion ?? '',
    );
    return {
      version,
      failures,
      rate: count === undefined ? undefined : decideOnTtl(count, limit, ttl ?? -1, msLeft),
      lastWrite: query.lastWriteKey && count !== undefined ? (lastWrite ?? '') : undefined,
    };
  }
}
