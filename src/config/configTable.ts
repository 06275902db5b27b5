import { variablesOf, type ConfigVariable } from './configVariables.js';

/**
 * The README's Configuration table: one row per variable, in the table's order, laid out as
 * Prettier lays out a Markdown table (columns padded to their widest cell), so the README
 * stays as `npm run format` leaves it.
 */
export function renderConfigTable(variables: readonly ConfigVariable[] = variablesOf()): string {
  const rows = [
    ['variable', 'default', 'meaning'],
    ...variables.map((v) => [
      `\`${v.name}\``,
      v.default === undefined ? (v.unset ?? 'unset') : `\`${v.default}\``,
      v.meaning,
    ]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => width(row[column]!))));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell + ' '.repeat(widths[i]! - width(cell))).join(' | ')} |`;
  const [header, ...body] = rows;
  return [line(header!), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** Characters as Prettier counts them here: every character of these cells is one column. */
function width(text: string): number {
  return [...text].length;
}
