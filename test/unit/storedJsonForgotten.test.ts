import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A record's stored JSON (src/lists/items/storedJson.ts) stays true only while every UPDATE of
 * list_items writes it again or forgets it: a statement that changes a record and keeps its
 * text would have reads answer the old values. Each statement in src/ that updates list_items
 * must assign updatedRecord(…) or FORGET_STORED_JSON before its WHERE or FROM.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');
const UPDATE = /update\s+(?:list_items\b|\$\{listItems\})/gi;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Each UPDATE of list_items in `text`, up to its FROM or WHERE (its SET, nested SQL and all). */
function listItemUpdates(text: string): string[] {
  return [...text.matchAll(UPDATE)].map((match) => {
    const rest = text.slice(match.index);
    const end = rest.search(/\bfrom\b|\bwhere\b/i);
    return rest.slice(0, end === -1 ? undefined : end);
  });
}

/** Whether an UPDATE's SET writes the stored JSON again or forgets it. */
const rewrites = (statement: string) =>
  statement.includes('${FORGET_STORED_JSON}') || statement.includes('${updatedRecord(');

describe('every UPDATE of list_items writes the stored JSON again or forgets it', () => {
  it('finds the statements (the check has something to check)', () => {
    const all = sourceFiles(SRC).flatMap((file) => listItemUpdates(readFileSync(file, 'utf8')));
    // single and batch updates, Citus's, field erasure, reseal
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  it('tells a statement that keeps the text from one that forgets it', () => {
    expect(listItemUpdates('sql`update list_items set data = $1 where id = $2`')).toEqual([
      'update list_items set data = $1 ',
    ]);
    const [forgets] = listItemUpdates(
      'sql`update ${listItems} li set data = 1${FORGET_STORED_JSON}\n from x`',
    );
    expect(forgets).toContain('FORGET_STORED_JSON');
    expect(rewrites(forgets!)).toBe(true);
    expect(rewrites('update list_items set data = 1, ${updatedRecord(\n f, v, l)} ')).toBe(true);
    expect(rewrites('update list_items set data = 1, ${keptData(d)} ')).toBe(false);
  });

  it('finds none in src/ that keeps it', () => {
    const keeping = sourceFiles(SRC).flatMap((file) =>
      listItemUpdates(readFileSync(file, 'utf8'))
        .filter((statement) => !rewrites(statement))
        .map((statement) => `${path.relative(SRC, file)}: ${statement.trim()}`),
    );
    expect(keeping).toEqual([]);
  });
});
