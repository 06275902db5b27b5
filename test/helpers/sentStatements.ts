import pg from 'pg';

/** A statement as the service handed it to node-postgres. */
export interface SentStatement {
  text: string;
  values: unknown[];
  /** the name it was sent under, if any (a prepared statement) */
  name?: string;
}

type Query = (this: pg.Client, config: unknown, ...rest: unknown[]) => unknown;
const listeners: ((statement: SentStatement) => void)[] = [];
let patched = false;

/**
 * Calls `listener` with every statement any pg.Client of this test file sends, before it is
 * sent: the way a test sees which statements a request made (how many, which plans) without a
 * Postgres log. The patch lasts as long as the file's modules (vitest gives each test file its
 * own), so listeners are added once, at the top of a file.
 */
export function onEveryStatement(listener: (statement: SentStatement) => void): void {
  listeners.push(listener);
  if (patched) return;
  patched = true;
  const classQuery = pg.Client.prototype.query as unknown as Query;
  (pg.Client.prototype as unknown as { query: Query }).query = function (config, ...rest) {
    const query = config as
      { text?: string; values?: unknown[]; name?: string } | string | null | undefined;
    const text = typeof query === 'string' ? query : query?.text;
    if (text) {
      const values =
        (typeof query === 'object' && query?.values) || (Array.isArray(rest[0]) ? rest[0] : []);
      const name = typeof query === 'object' ? query?.name : undefined;
      for (const listen of listeners) listen({ text, values, ...(name ? { name } : {}) });
    }
    return classQuery.call(this, config, ...rest);
  };
}

/** Whether a statement reads or writes the records table (FROM list_items). */
export const readsListItems = (text: string): boolean => /\bfrom\s+"?list_items"?/i.test(text);

/**
 * The texts of the statements this test file sends to the records table (readsListItems), in
 * the order sent; a test empties it (`sent.length = 0`) before the request it looks at.
 */
export function listItemStatements(): string[] {
  const sent: string[] = [];
  onEveryStatement(({ text }) => {
    if (readsListItems(text)) sent.push(text);
  });
  return sent;
}
