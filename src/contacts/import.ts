import type { Database } from '../infra/db/client.js';
import { parseImportLine, type ImportRecord } from './importLine.js';
import { findImportBot } from './importRepository.js';
import { ImportWriter, type ImportCounts } from './importWriter.js';

export type { ImportCounts };

/** What `importContacts` reports while it runs: counts after each batch and at the end, and each bad line. */
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
 * `contact import` (docs/operations.md): NDJSON lines in, batched upserts by messenger
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
  let keys = new Set<string>();

  const fail = (line: number, reason: string) => {
    counts.failed++;
    onProgress({ type: 'failure', line, reason });
  };
  const writer = new ImportWriter(db, bot, counts, fail);
  const flush = async () => {
    const records = batch;
    const batchKeys = keys;
    batch = [];
    keys = new Set();
    await writer.submit(records, batchKeys, () =>
      onProgress({ type: 'progress', lines, ...counts }),
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
  if (batch.length > 0) await flush();
  await writer.drain();
  onProgress({ type: 'progress', lines, ...counts });
  return counts;
}
