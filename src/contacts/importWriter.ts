import type { Database } from '../infra/db/client.js';
import { isDatabaseUnavailable } from '../infra/db/databaseErrors.js';
import type { ImportRecord } from './importLine.js';
import { writeImportBatch, type ImportBot } from './importRepository.js';

export interface ImportCounts {
  imported: number;
  updated: number;
  failed: number;
}

interface InFlight {
  /** messenger keys of the batch's contacts */
  keys: Set<string>;
  done: Promise<void>;
}

/**
 * Writes import batches, `concurrency` at a time on separate connections, while the caller
 * parses the next lines. A batch waits for any batch in flight that touches one of its
 * contacts, so lines about the same contact apply in file order. A batch Postgres refuses
 * is retried line by line, so only the lines at fault fail. Losing the database is thrown
 * from the next `submit` or from `drain`.
 */
export class ImportWriter {
  private readonly inFlight: InFlight[] = [];
  private failure: { err: unknown } | undefined;

  constructor(
    private readonly db: Database,
    private readonly bot: ImportBot,
    private readonly counts: ImportCounts,
    private readonly fail: (line: number, reason: string) => void,
    private readonly concurrency = 2,
  ) {}

  async submit(records: ImportRecord[], keys: Set<string>, written: () => void): Promise<void> {
    for (;;) {
      this.rethrow();
      const blocking = this.inFlight.filter((f) => overlaps(f.keys, keys));
      if (blocking.length === 0 && this.inFlight.length < this.concurrency) break;
      await Promise.race((blocking.length > 0 ? blocking : this.inFlight).map((f) => f.done));
    }
    const entry: InFlight = { keys, done: Promise.resolve() };
    entry.done = this.write(records)
      .then(written, (err: unknown) => {
        this.failure ??= { err };
      })
      .finally(() => this.inFlight.splice(this.inFlight.indexOf(entry), 1));
    this.inFlight.push(entry);
  }

  async drain(): Promise<void> {
    while (this.inFlight.length > 0) await Promise.all(this.inFlight.map((f) => f.done));
    this.rethrow();
  }

  private rethrow() {
    if (this.failure) throw this.failure.err;
  }

  private async write(records: ImportRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      this.add(await writeImportBatch(this.db, this.bot, records));
      return;
    } catch (err) {
      // an outage is not the lines' fault: stop, rather than fail every line one by one
      if (isDatabaseUnavailable(err) || records.length === 1) return this.refuse(records[0]!, err);
    }
    for (const record of records) {
      try {
        this.add(await writeImportBatch(this.db, this.bot, [record]));
      } catch (err) {
        this.refuse(record, err);
      }
    }
  }

  private refuse(record: ImportRecord, err: unknown) {
    if (isDatabaseUnavailable(err)) throw err;
    this.fail(record.line, describe(err));
  }

  private add(result: { imported: number; updated: number }) {
    this.counts.imported += result.imported;
    this.counts.updated += result.updated;
  }
}

function overlaps(a: Set<string>, b: Set<string>): boolean {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  for (const key of small) if (big.has(key)) return true;
  return false;
}

function describe(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const { message, cause } = e as { message?: unknown; cause?: unknown };
    if (!cause && typeof message === 'string') return `rejected by the database: ${message}`;
    e = cause;
  }
  return 'rejected by the database';
}
