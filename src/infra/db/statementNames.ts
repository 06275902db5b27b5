import { createHash } from 'node:crypto';
import type pg from 'pg';
import { BoundedMap } from '../../shared/boundedMap.js';

/**
 * The names statements go under: those of shapes (shapeStatements.ts), the bound on how many
 * a connection keeps, and none at all behind a transaction pooler.
 */
const SHAPE_PREFIX = 'lk_shape_';

/**
 * Named shape statements a connection keeps; past it the least recently used is deallocated.
 * Each holds a parsed statement and perhaps a plan in its Postgres backend, and a list's
 * shapes are many (a slot, an operator, an order): the bound keeps a backend's memory flat.
 */
export const MAX_SHAPE_STATEMENTS = 64;

/** The texts of that many shapes, a few KB each, are kept with their names (shapeName). */
const recentNames = new BoundedMap<string, string>(4 * MAX_SHAPE_STATEMENTS);

/**
 * A statement's name, made from its text: the same shape, the same name on every connection.
 * The names of the last shapes are kept by text: a lookup hashes the text once in V8, where a
 * digest cost ~12 µs of a read's server time with its objects.
 */
export function shapeName(text: string): string {
  let name = recentNames.get(text);
  if (name === undefined) {
    name = SHAPE_PREFIX + createHash('sha1').update(text).digest('base64url');
    recentNames.set(text, name);
  }
  return name;
}

type Query = (config: unknown, ...rest: unknown[]) => unknown;

/**
 * Every query of `client` passes `rewrite` first. The class's query is looked up at each call,
 * so a wrapper installed on the class later (a test's statement log) still sees each query.
 */
function interceptQueries(client: pg.PoolClient, rewrite: (config: unknown) => unknown): void {
  const classQuery = () => (Object.getPrototypeOf(client) as { query: Query }).query;
  (client as unknown as { query: Query }).query = (config, ...rest) =>
    classQuery().call(client, rewrite(config), ...rest);
}

/**
 * Every query of this client goes out unnamed: drizzle's `.prepare(name)` (the hot lookups)
 * and the shape statements become ordinary parameterised queries, parsed each time, which any
 * pooler passes through.
 */
export function dropStatementNames(client: pg.PoolClient): void {
  interceptQueries(client, (config) =>
    typeof config === 'object' && config !== null && 'name' in config && !('submit' in config)
      ? { ...config, name: undefined }
      : config,
  );
}

/**
 * Keeps a connection's shape statements to MAX_SHAPE_STATEMENTS: the least recently used is
 * deallocated (queued on the connection before the statement that displaces it) and
 * forgotten by the driver, which would otherwise skip parsing it next time.
 */
export function boundShapeStatements(client: pg.PoolClient): void {
  const connection = (client as unknown as { connection: { parsedStatements: object } }).connection;
  const used = new BoundedMap<string, true>(MAX_SHAPE_STATEMENTS, {
    onEvict: (oldest) => {
      const parsed = connection.parsedStatements as Record<string, string | undefined>;
      // only what Postgres prepared: a statement whose parse failed is not there to drop
      if (parsed[oldest] === undefined) return;
      delete parsed[oldest];
      // through the client itself: queued before the statement that displaces it
      (client.query(`deallocate "${oldest}"`) as Promise<unknown>).catch(() => undefined);
    },
  });
  interceptQueries(client, (config) => {
    const name = (config as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || !name.startsWith(SHAPE_PREFIX)) return config;
    used.set(name, true);
    return config;
  });
}
