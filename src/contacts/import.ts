import type { Database } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { parseImportLine, type ImportRecord } from './importLine.js';
import { findImportBot, writeImportBatch, type ImportBot } from './importRepository.js';

export interface ImportCounts {
  imported: number;
  updated: number;
  failed: number;
}

/** What `importContacts` reports while it runs: counts after each batch, and each bad line. */
export type ImportEvent =
  | ({ type: 'progress'; lines: number } & ImportCounts)
  | { type: 'failure'; line: number; reason: string };

/** Lines per transaction: big enough for throughput, small enough to keep locks short. */
export const IMPORT_BATCH_SIZE = 2000;

export class ImportBotNotFound extends Error {
  constructor(botId: number) {
    super(`no bot with id ${botId}`);
  }
}

/**
 * `contact import` (contract/operations.md): NDJSON lines in, batched upserts by messenger
 * ID out. A bad line — unparsable, invalid, or refused by Postgres — is reported with its
 * line number and the import goes on. Returns the totals.
 */
export async function importContacts(
  db: Database,
  botId: number,
  input: AsyncIterable<string>,
  onProgress: (event: ImportEvent) => void = () => undefined,
): Promise<ImportCounts> {
  const bot = await findImportBot(db, botId);
  if (!bot) throw new ImportBotNotFound(botId);
  const counts: ImportCounts = { imported: 0, updated: 0, failed: 0 };
  let lines = 0;
  let batch: ImportRecord[] = [];
  const keys = new Set<string>();

  const fail = (line: number, reason: string) => {
    counts.failed++;
    onProgress({ type: 'failure', line, reason });
  };
  // One batch is written while the next is parsed (Postgres and Node work side by side);
  // a batch's write starts only after the previous one ended, so lines apply in order.
  let writing: Promise<unknown> = Promise.resolve();
  let writeError: { err: unknown } | undefined;
  const settle = async () => {
    await writing;
    if (writeError) throw writeError.err;
  };
  const flush = async () => {
    await settle();
    const records = batch;
    const upTo = lines;
    batch = [];
    keys.clear();
    writing = writeBatch(db, bot, records, counts, fail).then(
      () => onProgress({ type: 'progress', lines: upTo, ...counts }),
      (err: unknown) => (writeError = { err }),
    );
  };

  for await (const raw of input) {
    lines++;
    if (raw.trim() === '') continue;
    const parsed = parseImportLine(lines, raw);
    if ('error' in parsed) {
      fail(lines, parsed.error);
      continue;
    }
    const key =
      parsed.record.key === null ? null : `${parsed.record.messenger}:${parsed.record.key}`;
    // The same contact twice in one batch: write the first before the second updates it.
    if (key !== null && keys.has(key)) await flush();
    if (key !== null) keys.add(key);
    batch.push(parsed.record);
    if (batch.length >= IMPORT_BATCH_SIZE) await flush();
  }
  await flush();
  await settle();
  return counts;
}

/**
 * One batch in one transaction. If Postgres refuses it, each line is retried alone so
 * only the lines at fault fail, each with Postgres's reason.
 */
async function writeBatch(
  db: Database,
  bot: ImportBot,
  batch: ImportRecord[],
  counts: ImportCounts,
  fail: (line: number, reason: string) => void,
): Promise<void> {
  if (batch.length === 0) return;
  try {
    add(counts, await writeImportBatch(db, bot, batch));
    return;
  } catch (err) {
    // an outage is not the lines' fault: stop, rather than fail every line one by one
    if (isDatabaseUnavailable(err)) throw err;
    if (batch.length === 1) {
      fail(batch[0]!.line, describe(err));
      return;
    }
  }
  for (const record of batch) {
    try {
      add(counts, await writeImportBatch(db, bot, [record]));
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      fail(record.line, describe(err));
    }
  }
}

function add(counts: ImportCounts, result: { imported: number; updated: number }) {
  counts.imported += result.imported;
  counts.updated += result.updated;
}

function describe(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const { message, cause } = e as { message?: unknown; cause?: unknown };
    if (!cause && typeof message === 'string') return `rejected by the database: ${message}`;
    e = cause;
  }
  return 'rejected by the database';
}
