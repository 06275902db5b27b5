import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ImportBotNotFound, importContacts } from '../../contacts/import.js';
import { OperatorError } from '../../operator/operatorError.js';
import { defineCommand } from '../command.js';

export const contactImport = defineCommand({
  name: 'contact import',
  summary:
    'Import contacts into a bot from NDJSON (one contact per line, in the shape getContacts answers with).',
  title: 'Contacts imported.',
  flags: {
    bot: { description: 'bot ID', required: true, kind: 'id', placeholder: 'ID' },
    file: { description: 'NDJSON file, one contact per line', required: true, placeholder: 'PATH' },
  },
  async run({ db, stderr }, flags) {
    const size = await fileSize(flags.file);
    const progress = new ProgressBar(stderr, size);
    const file = { bytes: 0 };
    try {
      const counts = await importContacts(db, flags.bot, readLines(flags.file, file), (event) => {
        if (event.type === 'failure') progress.note(`line ${event.line}: ${event.reason}`);
        else progress.update(file.bytes, event);
      });
      progress.done();
      return { imported: counts.imported, updated: counts.updated, failed: counts.failed };
    } catch (err) {
      progress.done();
      if (err instanceof ImportBotNotFound) throw new OperatorError(err.message);
      throw err;
    }
  },
});

/**
 * The file's lines, opened only when the import starts pulling: readline drops lines
 * emitted before its iterator exists, so nothing may be read ahead of the loop.
 */
async function* readLines(path: string, read: { bytes: number }): AsyncIterable<string> {
  const stream = createReadStream(path);
  stream.on('data', (chunk) => (read.bytes += chunk.length));
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    stream.destroy();
  }
}

async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new OperatorError(`--file ${path} is not a file`);
    return info.size;
  } catch (err) {
    if (err instanceof OperatorError) throw err;
    throw new OperatorError(
      `cannot read --file ${path}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
  }
}

const WIDTH = 30;
/** How often a non-terminal stderr (a log file) gets a progress line. */
const LOG_EVERY_MS = 5000;

/**
 * The progress bar on stderr (contract: stdout stays the result). On a terminal it is
 * redrawn in place; anywhere else it is a line every few seconds. Failures are printed one
 * per line above it.
 */
class ProgressBar {
  private lastLine = '';
  private lastLogged = 0;
  /** whether lastLine is already on a non-terminal stderr */
  private logged = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly size: number,
  ) {}

  update(bytes: number, c: { lines: number; imported: number; updated: number; failed: number }) {
    const share = this.size > 0 ? Math.min(1, bytes / this.size) : 1;
    const filled = Math.round(share * WIDTH);
    this.lastLine =
      `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ` +
      `${c.lines} lines, ${c.imported} imported, ${c.updated} updated, ${c.failed} failed`;
    this.logged = false;
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[K${this.lastLine}`);
    } else if (Date.now() - this.lastLogged >= LOG_EVERY_MS) {
      this.lastLogged = Date.now();
      this.logged = true;
      this.out.write(`${this.lastLine}\n`);
    }
  }

  note(text: string) {
    const line = text.replace(/\s*\n\s*/g, ' ');
    if (this.out.isTTY) this.out.write(`\r\x1b[K${line}\n${this.lastLine}`);
    else this.out.write(`${line}\n`);
  }

  done() {
    if (this.lastLine === '') return;
    if (this.out.isTTY) this.out.write('\n');
    else if (!this.logged) this.out.write(`${this.lastLine}\n`);
    this.lastLine = '';
  }
}
