/**
 * The sweep's chart as hand-written SVG (no dependency): for each list size, one panel per
 * case, a cell per shape (rows) and selectivity (columns) holding API/plain throughput, coloured
 * against the case's target (red below the plain table, amber between it and the target, green
 * at or past it), with API p99 / plain p99 beneath.
 */
import type { Case, SweepRow } from './sweepBench.js';
import { p99Text, ratioText } from './sweepRatio.js';

/** API/plain throughput each case aims at (docs/benchmarks.md, the sweep's targets). */
export const SWEEP_TARGETS: Record<Case, number> = {
  repeated: 3,
  first: 1,
  bounds: 1,
  writes: 2,
  inserts20: 2,
  inserts5: 1.2,
};

const CELL = { w: 62, h: 30 };
const LABEL_W = 96;
const PANEL_GAP = 18;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const pct = (s: number) => `${+(s * 100).toFixed(1)} %`;

function colour(ratio: number, target: number): string {
  if (ratio < 1) return '#f4b6b0';
  return ratio < target ? '#f8dc9c' : '#b9e3b0';
}

export function sweepChartSvg(rows: SweepRow[]): string {
  const cases = [...new Set(rows.map((r) => r.case))];
  const shapes = [...new Set(rows.map((r) => r.shape))];
  const selectivities = [...new Set(rows.map((r) => r.selectivity))].sort((a, b) => a - b);
  const sizes = [...new Set(rows.map((r) => r.size))];
  const panelW = LABEL_W + selectivities.length * CELL.w;
  const panelH = 40 + shapes.length * CELL.h;
  const width = cases.length * (panelW + PANEL_GAP) + PANEL_GAP;
  const height = sizes.length * (panelH + 24) + 30;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="10">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${PANEL_GAP}" y="16" font-size="13">getListItems against the plain-table twin: API/plain req/s (API p99 / plain p99 ms); red below 1, amber below the case's target, green at it</text>`,
  ];
  sizes.forEach((size, si) => {
    const top = 30 + si * (panelH + 24);
    cases.forEach((c, ci) => {
      const left = PANEL_GAP + ci * (panelW + PANEL_GAP);
      parts.push(
        `<text x="${left}" y="${top + 12}" font-size="12">${esc(`${c} (target ${SWEEP_TARGETS[c]}×), ${size.toLocaleString('en')} records`)}</text>`,
      );
      selectivities.forEach((s, k) => {
        const x = left + LABEL_W + k * CELL.w + CELL.w / 2;
        parts.push(`<text x="${x}" y="${top + 32}" text-anchor="middle">${pct(s)}</text>`);
      });
      shapes.forEach((shape, r) => {
        const y = top + 38 + r * CELL.h;
        parts.push(`<text x="${left}" y="${y + 18}">${esc(shape)}</text>`);
        selectivities.forEach((s, k) => {
          const row = rows.find(
            (x) => x.size === size && x.case === c && x.shape === shape && x.selectivity === s,
          );
          if (!row) return;
          const x = left + LABEL_W + k * CELL.w;
          parts.push(
            `<rect x="${x + 1}" y="${y + 1}" width="${CELL.w - 2}" height="${CELL.h - 2}" fill="${colour(row.ratio, SWEEP_TARGETS[c])}"/>`,
            `<text x="${x + CELL.w / 2}" y="${y + 13}" text-anchor="middle" font-size="11">${ratioText(row)}</text>`,
            `<text x="${x + CELL.w / 2}" y="${y + 25}" text-anchor="middle" fill="#555">${p99Text(row.api, 0)} / ${p99Text(row.plain, 0)}</text>`,
          );
        });
      });
    });
  });
  parts.push('</svg>');
  return parts.join('\n');
}
