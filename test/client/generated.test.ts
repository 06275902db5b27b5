import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, renderGeneratedFiles } from '../../client/scripts/generate.js';

const run = promisify(execFile);

describe('the client package (built from the OpenAPI document)', () => {
  it(
    'has generated types identical to what the current document produces',
    { timeout: 60_000 },
    async () => {
      const expected = await renderGeneratedFiles();
      for (const [name, text] of Object.entries(expected)) {
        const committed = await readFile(path.join(GENERATED_DIR, name), 'utf8');
        expect(committed, `client/src/generated/${name} is stale: npm run client:generate`).toBe(
          text,
        );
      }
    },
  );

  it(
    'builds on its own with tsc and its own tsconfig, into a loadable ES module',
    { timeout: 60_000 },
    async () => {
      const out = mkdtempSync(path.join(tmpdir(), 'lk-client-'));
      try {
        const tsc = path.resolve('node_modules/typescript/bin/tsc');
        await run(process.execPath, [tsc, '-p', 'client/tsconfig.json', '--outDir', out]);
        expect(existsSync(path.join(out, 'index.d.ts'))).toBe(true);
        const built = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as {
          createClient: (o: object) => Record<string, unknown>;
          methodNames: readonly string[];
        };
        const client = built.createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
        expect(typeof client.getMe).toBe('function');
        expect(built.methodNames).toContain('getListItems');
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    },
  );
});
