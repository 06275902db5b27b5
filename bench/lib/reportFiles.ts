/**
 * The one report writer of the bench: where a report goes, the line that says what wrote it,
 * and its files written through prettier with the project's settings, so a run leaves the
 * tree format-clean.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format, getFileInfo, resolveConfig } from 'prettier';

/**
 * docs/bench for a full run; the temp directory for a smoke run or a part of one, which is
 * not the measurement docs/bench holds.
 */
export function reportDir(toTemp: boolean): string {
  return toTemp ? path.join(os.tmpdir(), 'listkeeper-bench') : path.resolve('docs/bench');
}

/** "Written by `<command>` on <date> (<n> cores)" for the line under a report's title. */
export function writtenBy(command: string, smoke: boolean): string {
  const day = new Date().toISOString().slice(0, 10);
  return `Written by \`${command}${smoke ? ' -- --smoke' : ''}\` on ${day} (${os.cpus().length} cores)`;
}

/**
 * Writes each `name → text` into `dir` (made if missing): formatted when prettier knows the
 * file's kind (Markdown, JSON), as it is otherwise (an SVG).
 */
export async function writeReportFiles(dir: string, files: Record<string, string>) {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    const { inferredParser } = await getFileInfo(file);
    const settings = (await resolveConfig(file)) ?? {};
    writeFileSync(
      file,
      inferredParser ? await format(text, { ...settings, filepath: file }) : text,
    );
  }
}
