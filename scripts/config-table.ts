/** Writes README.md's Configuration table from src/config/configVariables.ts (`npm run docs:config`). */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderConfigTable } from '../src/config/configTable.js';

export const README = path.resolve(import.meta.dirname, '../README.md');

/** `readme` with its Configuration table (the first table after "## Configuration") rendered anew. */
export function withCurrentConfigTable(readme: string): string {
  const lines = readme.split('\n');
  const section = lines.indexOf('## Configuration');
  const start = lines.findIndex((l, i) => i > section && l.startsWith('| '));
  if (section < 0 || start < 0) throw new Error('README.md has no Configuration table');
  let end = start;
  while (lines[end]?.startsWith('|')) end++;
  return [...lines.slice(0, start), renderConfigTable(), ...lines.slice(end)].join('\n');
}

if (process.argv[1] === import.meta.filename) {
  writeFileSync(README, withCurrentConfigTable(readFileSync(README, 'utf8')));
  console.log(`wrote the Configuration table of ${path.relative(process.cwd(), README)}`);
}
