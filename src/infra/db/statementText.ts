import { Column, is, Name, SQL, StringChunk, Table } from 'drizzle-orm';

/** A statement as the driver receives it: its text with `$n` placeholders, and their values. */
export interface BuiltStatement {
  sql: string;
  params: unknown[];
}

/** drizzle's dialect: its own build, for a statement holding what the walk below does not know. */
export interface StatementDialect {
  sqlToQuery(query: SQL): BuiltStatement;
}

/**
 * A statement's text and values, as drizzle's `sqlToQuery` builds them, for the statements
 * the service writes with `sql`: text, nested statements, identifiers, values, and the
 * tables and columns of the schema. drizzle's own build asks each piece in turn whether it is
 * each of a dozen kinds, walking class chains, and makes an object for every piece; on a
 * first-time read of a few records that was ~70 µs of the server's ~800 a request, with its
 * garbage (docs/benchmarks.md, "The statement's text"). This walk asks three questions of a
 * piece and appends to one string. A statement holding anything else (a typed parameter, an
 * inlined one, a list of values, a subquery object) is built by drizzle as before.
 */
export function buildStatement(dialect: StatementDialect, query: SQL): BuiltStatement {
  const built: BuiltStatement = { sql: '', params: [] };
  return appendStatement(dialect, query, built) ? built : dialect.sqlToQuery(query);
}

/** Appends `query` to `built`; false where a piece needs drizzle's build. */
function appendStatement(dialect: StatementDialect, query: SQL, built: BuiltStatement): boolean {
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of query.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) {
      const { value } = chunk;
      built.sql += value.length === 1 ? value[0] : value.join('');
    } else if (chunk instanceof SQL) {
      if (!appendStatement(dialect, chunk, built)) return false;
    } else if (isValue(chunk)) {
      built.params.push(chunk);
      built.sql += `$${built.params.length}`;
    } else if (chunk instanceof Name) {
      built.sql += escapeName(chunk.value);
    } else if (chunk !== undefined) {
      const text = schemaText(dialect, chunk);
      if (text === undefined) return false;
      built.sql += text;
    }
  }
  return true;
}

/** What drizzle sends as a parameter as it is (its last case): no SQL of its own. */
function isValue(chunk: unknown): boolean {
  switch (typeof chunk) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return true;
    case 'object':
      return chunk === null || chunk instanceof Date || Buffer.isBuffer(chunk);
    default:
      return false;
  }
}

/** The dialect's quoting of an identifier (PgDialect.escapeName). */
function escapeName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A table's or column's text, built by drizzle once and kept with the object (the schema's
 * objects live as long as the process; a column's text names its table, so never varies).
 * Undefined for any other piece.
 */
const schemaTexts = new WeakMap<object, string | null>();

function schemaText(dialect: StatementDialect, chunk: unknown): string | undefined {
  if (typeof chunk !== 'object' || chunk === null) return undefined;
  let text = schemaTexts.get(chunk);
  if (text === undefined) {
    text = is(chunk, Table) || is(chunk, Column) ? dialect.sqlToQuery(new SQL([chunk])).sql : null;
    schemaTexts.set(chunk, text);
  }
  return text ?? undefined;
}

/** The part of drizzle's session a raw statement goes through (what `db.execute` does). */
export interface DrizzleSession {
  dialect: StatementDialect;
  prepareQuery(
    query: BuiltStatement,
    fields: undefined,
    name: string | undefined,
    arrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

/** A database's or transaction's drizzle session, where it has one (both drivers' have). */
export function sessionOf(db: object): DrizzleSession | undefined {
  const session = (db as { session?: Partial<DrizzleSession> }).session;
  return typeof session?.prepareQuery === 'function' && session.dialect
    ? (session as DrizzleSession)
    : undefined;
}

/**
 * A statement's rows, sent as `db.execute` sends it but with its text built by
 * buildStatement; under the name `nameOf` gives its text, where given (a statement the
 * connection keeps parsed).
 */
export async function sendStatement<T>(
  session: DrizzleSession,
  query: SQL,
  nameOf?: (text: string) => string,
): Promise<T[]> {
  const built = buildStatement(session.dialect, query);
  const name = nameOf?.(built.sql);
  const result = (await session.prepareQuery(built, undefined, name, false).execute()) as {
    rows: T[];
  };
  return result.rows;
}
