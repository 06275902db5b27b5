/**
 * Where a change feed reader stands (docs/changes.md). The feed is read in batches: a batch
 * is every transaction that finished after snapshot `a` and by snapshot `b` (Postgres
 * snapshots, `xmin:xmax:xip,…`), in the order its events were written (`seq`). `a` absent:
 * the first batch, everything `b` saw. `b` absent: the next read starts a new batch at the
 * head. `last`: the last event already read from batch `b`.
 */
export interface FeedCursor {
  a?: string;
  b?: string;
  last: number;
}

/** The origin: no event read yet (getChanges without `since`). */
export const ORIGIN: FeedCursor = { last: 0 };

const SNAPSHOT = /^(\d{1,20}):(\d{1,20}):((?:\d{1,20})(?:,\d{1,20})*)?$/;
const MAX_XID = 2n ** 63n;
/** a snapshot lists the transactions running when it was taken: bounded by the connections */
const MAX_CURSOR_LENGTH = 65_536;

/** The opaque text a client holds: base64url of a small JSON object. */
export function encodeCursor(cursor: FeedCursor): string {
  const body: Record<string, unknown> = { v: 1 };
  if (cursor.a) body.a = cursor.a;
  if (cursor.b) body.b = cursor.b;
  if (cursor.last > 0) body.l = cursor.last;
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The cursor a text stands for, or undefined when it is not one this service wrote. */
export function decodeCursor(text: string): FeedCursor | undefined {
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { v, a, b, l = 0 } = body as Record<string, unknown>;
  if (v !== 1 || !Number.isSafeInteger(l) || (l as number) < 0) return undefined;
  if (a !== undefined && !isSnapshot(a)) return undefined;
  if (b !== undefined && !isSnapshot(b)) return undefined;
  // a position inside a batch needs the batch
  if (b === undefined && l !== 0) return undefined;
  return { a: a as string | undefined, b: b as string | undefined, last: l as number };
}

/** Text Postgres would read as a pg_snapshot: xmin ≤ each running xid < xmax, ascending. */
function isSnapshot(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = SNAPSHOT.exec(value);
  if (!m) return false;
  const xmin = BigInt(m[1]!);
  const xmax = BigInt(m[2]!);
  if (xmin < 1n || xmin > xmax || xmax >= MAX_XID) return false;
  let previous = xmin - 1n;
  for (const text of m[3]?.split(',') ?? []) {
    const xid = BigInt(text);
    if (xid <= previous || xid >= xmax) return false;
    previous = xid;
  }
  return true;
}
