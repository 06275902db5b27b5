// Bundles the browser console (src/console/web/) into dist/console-web/console.js and
// console.css with esbuild. Called by ensure-build.mjs after tsc, so `npm run build`,
// `npm ci` (prepare) and the image's build stage all produce it; the runtime image only
// copies dist/ and needs neither esbuild nor the UI library.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CONSOLE_ENTRY = path.join(ROOT, 'src/console/web/consoleMain.ts');
export const CONSOLE_OUT = path.join(ROOT, 'dist/console-web');

/** Resolves when both files are written; rejects with esbuild's messages otherwise. */
export async function bundleConsole() {
  // Imported here, not at the top: ensure-build.mjs also runs where only production
  // dependencies are installed, and never calls this there.
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: { console: CONSOLE_ENTRY },
    outdir: CONSOLE_OUT,
    bundle: true,
    format: 'esm',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16'],
    minify: true,
    legalComments: 'none',
    sourcemap: false,
    logLevel: 'warning',
    tsconfig: path.join(ROOT, 'src/console/web/tsconfig.json'),
  });
}
