import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { OperatorError } from '../operator/operatorError.js';

/**
 * The file's lines, opened only when the import starts pulling: readline drops lines
 * emitted before its iterator exists, so nothing may be read ahead of the loop.
 */
export async function* readLines(path: string, read: { bytes: number }): AsyncIterable<string> {
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

export async function fileSize(path: string): Promise<number> {
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
