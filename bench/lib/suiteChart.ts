/**
 * The run's chart as hand-written SVG (no dependency): left, API p50 against list size for
 * scenarios c, d, e (log-log); right, API throughput as a share of raw for every scenario.
 */
import type { Row } from './suiteReport.js';

const W = 960;
const H = 420;
const COLORS: Record<string, string> = { c: '#1f77b4', d: '#d62728', e: '#2ca02c' };
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function chartSvg(rows: Row[]): string {
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
  ];
  // Left panel: p50 (ms, log) against list size (log).
  const L = { x: 60, y: 30, w: 340, h: 320 };
  const sized = rows.filter((r) => r.size !== undefined && COLORS[r.letter]);
  const sizes = sized.map((r) => r.size!);
  const p50s = sized.map((r) => Math.max(r.api.p50, 0.01));
  if (sized.length > 0) {
    const [x0, x1] = [Math.log10(Math.min(...sizes)), Math.log10(Math.max(...sizes))];
    const [y0, y1] = [
      Math.floor(Math.log10(Math.min(...p50s))),
      Math.ceil(Math.log10(Math.max(...p50s))),
    ];
    const px = (size: number) => L.x + ((Math.log10(size) - x0) / Math.max(x1 - x0, 1e-9)) * L.w;
    const py = (ms: number) =>
      L.y + L.h - ((Math.log10(Math.max(ms, 0.01)) - y0) / Math.max(y1 - y0, 1)) * L.h;
    parts.push(
      `<text x="${L.x}" y="18" font-size="13">API p50 (ms, log) against list size (log): c, d, e</text>`,
    );
    parts.push(
      `<rect x="${L.x}" y="${L.y}" width="${L.w}" height="${L.h}" fill="none" stroke="#999"/>`,
    );
    for (let e = y0; e <= y1; e++) {
      const y = py(10 ** e);
      parts.push(`<line x1="${L.x}" x2="${L.x + L.w}" y1="${y}" y2="${y}" stroke="#eee"/>`);
      parts.push(`<text x="${L.x - 6}" y="${y + 4}" text-anchor="end">${10 ** e}</text>`);
    }
    for (const size of [...new Set(sizes)]) {
      parts.push(`<text x="${px(size)}" y="${L.y + L.h + 16}" text-anchor="middle">${size}</text>`);
    }
    let legend = 0;
    for (const letter of Object.keys(COLORS)) {
      const pts = sized.filter((r) => r.letter === letter).sort((a, b) => a.size! - b.size!);
      if (pts.length === 0) continue;
      const d = pts.map((r) => `${px(r.size!).toFixed(1)},${py(r.api.p50).toFixed(1)}`).join(' ');
      parts.push(
        `<polyline points="${d}" fill="none" stroke="${COLORS[letter]}" stroke-width="2"/>`,
      );
      for (const r of pts) {
        parts.push(
          `<circle cx="${px(r.size!)}" cy="${py(r.api.p50)}" r="3" fill="${COLORS[letter]}"/>`,
        );
      }
      parts.push(
        `<text x="${L.x + 8}" y="${L.y + 16 + legend++ * 14}" fill="${COLORS[letter]}">${letter}</text>`,
      );
    }
  }
  // Right panel: API req/s as a share of raw, one bar per scenario.
  const R = { x: 560, y: 30, w: 380, h: 360 };
  parts.push(
    `<text x="${R.x - 120}" y="18" font-size="13">API throughput / raw (same SQL, plain pg pool)</text>`,
  );
  const bar = Math.min(20, R.h / Math.max(rows.length, 1));
  const scale = R.w / Math.max(1, ...rows.map((r) => r.api.rps / r.raw.rps));
  rows.forEach((r, i) => {
    const ratio = r.api.rps / r.raw.rps;
    const y = R.y + i * bar;
    parts.push(`<text x="${R.x - 4}" y="${y + bar * 0.7}" text-anchor="end">${esc(r.id)}</text>`);
    parts.push(
      `<rect x="${R.x}" y="${y + 1}" width="${(Number.isFinite(ratio) ? ratio : 0) * scale}" height="${bar - 2}" fill="#7f7fbf"/>`,
    );
    parts.push(`<text x="${R.x + 4}" y="${y + bar * 0.7}" fill="white">${ratio.toFixed(2)}</text>`);
  });
  const one = R.x + scale;
  parts.push(
    `<line x1="${one}" x2="${one}" y1="${R.y}" y2="${R.y + rows.length * bar}" stroke="#333" stroke-dasharray="4"/>`,
  );
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
