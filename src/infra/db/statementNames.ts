import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The names shape statements go under (shapeStatements.ts), and the bound on how many a
 * connection keeps.
 */
const SHAPE_PREFIX = 'lk_shape_';

/**
 * Named shape statements a connection keeps; past it the least recently used is deallocated.
 * Each holds a parsed statement and perhaps a plan in its Postgres backend, and a list's
 * shapes are many (a slot, an operator, an order): the bound keeps a backend's memory flat.
 */
export const MAX_SHAPE_STATEMENTS = 64;

/** A statement's name, made from its text: the same shape, the same name on every connection. */
export function shapeName(text: string): string {
  return SHAPE_PREFIX + createHash('sha1').update(text).digest('base64url');
}

type Query = (config: unknown, ...rest: unknown[]) => unknown;

/**
 * Keeps a connection's shape statements to MAX_SHAPE_STATEMENTS: the least recently used is
 * deallocated (queued on the connection before the statement that displaces it) and
 * forgotten by the driver, which would otherwise skip parsing it next time.
 */
export function boundShapeStatements(client: pg.PoolClient): void {
  const used = new Map<string, true>(); // least recently used first
  const connection = (client as unknown as { connection: { parsedStatements: object } }).connection;
  const classQuery = () => (Object.getPrototypeOf(client) as { query: Query }).query;
  (client as unknown as { query: Query }).query = (config, ...rest) => {
    const name = (config as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && name.startsWith(SHAPE_PREFIX)) {
      if (!used.delete(name) && used.size >= MAX_SHAPE_STATEMENTS) {
        const oldest = used.keys().next().value as string;
        used.delete(oldest);
        const parsed = connection.parsedStatements as Record<string, string | undefined>;
        // only what Postgres prepared: a statement whose parse failed is not there to drop
        if (parsed[oldest] !== undefined) {
          delete parsed[oldest];
          const dropped = classQuery().call(client, `deallocate "${oldest}"`) as Promise<unknown>;
          dropped.catch(() => undefined);
        }
      }
      used.set(name, true);
    }
    return classQuery().call(client, config, ...rest);
  };
}
