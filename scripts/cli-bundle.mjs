// Bundles the operator CLI (dist/cli/cliMain.js, as tsc emitted it) into dist/cli-bundle/ with
// esbuild. Called by ensure-build.mjs after tsc, like the console's bundle. Why: a CLI call
// spends most of its time resolving and reading the few hundred module files of zod, drizzle
// and pg one by one; a bundle reads a handful. `splitting` keeps each command a chunk of its
// own, loaded only when that command runs (src/cli/commandRegistry.ts).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_COMPILED_ENTRY = path.join(ROOT, 'dist/cli/cliMain.js');
export const CLI_BUNDLE_DIR = path.join(ROOT, 'dist/cli-bundle');

/** Resolves when the bundle is written; rejects with esbuild's messages otherwise. */
export async function bundleCli() {
  // Imported here, not at the top: see console-bundle.mjs.
  const esbuild = await import('esbuild');
  // Chunk names carry a content hash: without this, every build would leave the last one's.
  rmSync(CLI_BUNDLE_DIR, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { cliMain: CLI_COMPILED_ENTRY },
    outdir: CLI_BUNDLE_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Stay in node_modules: native code (argon2, pg-native); PGlite, which reads its
    // WebAssembly and data files from beside its own module; ioredis, whose named export
    // `Redis` is lost in esbuild's CommonJS interop (and which loads only to notify servers).
    external: ['argon2', 'pg-native', '@electric-sql/pglite', '@electric-sql/pglite/*', 'ioredis'],
    // CommonJS dependencies (pg, ioredis) call require(); an ES module bundle has none.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}
