import type { Redis } from 'ioredis';
import { HINT_TTL_SECONDS, MAX_POSITIONS, type PagingHints, type Position } from './pagingHints.js';

/**
 * Paging hints in Redis, shared by every instance. Positions are a sorted set per listing:
 * score = offset, member = last id (a last id belongs to exactly one offset). Any Redis
 * failure reads as "nothing remembered": the answer then comes from Postgres alone.
 */
export class RedisPagingHints implements PagingHints {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async nearest(key: string, offset: number): Promise<Position | undefined> {
    if (!this.ready()) return undefined;
    try {
      const found = await this.redis.zrevrangebyscore(
        this.positionsKey(key),
        offset,
        '-inf',
        'WITHSCORES',
        'LIMIT',
        0,
        1,
      );
      const [member, score] = found;
      if (member === undefined || score === undefined) return undefined;
      return { offset: Number(score), lastId: Number(member) };
    } catch {
      return undefined;
    }
  }

  async remember(key: string, position: Position): Promise<void> {
    if (!this.ready()) return;
    const k = this.positionsKey(key);
    try {
      await this.redis
        .pipeline()
        .zadd(k, position.offset, String(position.lastId))
        .zremrangebyrank(k, 0, -(MAX_POSITIONS + 1))
        .expire(k, HINT_TTL_SECONDS)
        .exec();
    } catch {
      // best effort: the next page falls back to the deferred join
    }
  }

  async total(key: string): Promise<number | undefined> {
    if (!this.ready()) return undefined;
    try {
      const value = await this.redis.get(this.totalKey(key));
      return value === null ? undefined : Number(value);
    } catch {
      return undefined;
    }
  }

  async rememberTotal(key: string, total: number): Promise<void> {
    if (!this.ready()) return;
    try {
      await this.redis.set(this.totalKey(key), String(total), 'EX', HINT_TTL_SECONDS);
    } catch {
      // best effort: the next page counts again
    }
  }

  private ready(): boolean {
    return this.redis.status === 'ready';
  }

  private positionsKey(key: string) {
    return `${this.prefix}contacts:pos:${key}`;
  }

  private totalKey(key: string) {
    return `${this.prefix}contacts:total:${key}`;
  }
}
