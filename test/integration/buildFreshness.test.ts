import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT, type RunResult } from '../helpers/processes.js';

// `npm start`, `npm run migrate` and `npm run cli` must not compile an up-to-date
// checkout, and must rebuild after a source changes. Run on a copy of the real package.json,
// scripts/ensure-build.mjs and bin/listkeeper.js around a tiny src/, whose
// node_modules/typescript/bin/tsc logs each call and then runs the real compiler: rebuilding
// the real dist/ here would pull it from under the other test files' processes.
let tree: string;
const TSC_LOG = () => path.join(tree, 'tsc-calls.log');
const tscCalls = () =>
  existsSync(TSC_LOG()) ? readFileSync(TSC_LOG(), 'utf8').split('\n').filter(Boolean).length : 0;

function exec(command: string, args: string[], cwd = tree): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv({}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
const npm = (...args: string[]) => exec('npm', ['run', '--silent', ...args]);
const check = () => exec(process.execPath, ['scripts/ensure-build.mjs']);
const CLI_ARGS = ['account', 'create', '--email', 'a@example.test', '--json'];
const CLI_OUT = JSON.stringify(CLI_ARGS) + '\n';

function write(file: string, text: string) {
  mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
  writeFileSync(path.join(tree, file), text);
}

/** Every file and directory under dir with its mtime, to prove nothing was rewritten. */
function mtimes(dir: string, into: Record<string, number> = {}): Record<string, number> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    into[path.relative(tree, full)] = statSync(full).mtimeMs;
    if (entry.isDirectory()) mtimes(full, into);
  }
  return into;
}

/**
 * A source saved after the last build started. Not dated ahead: a file from the future stays
 * newer than every build's stamp until the clock passes it.
 */
const edit = write;

beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'lk-build-'));
  for (const file of [
    'package.json',
    'scripts/ensure-build.mjs',
    'scripts/cli-bundle.mjs',
    'bin/listkeeper.js',
  ]) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    copyFileSync(path.join(ROOT, file), path.join(tree, file));
  }
  write(
    'tsconfig.build.json',
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        types: [],
        outDir: 'dist',
        rootDir: 'src',
        incremental: true,
        tsBuildInfoFile: 'dist/.tsbuildinfo',
      },
      include: ['src'],
    }),
  );
  write(
    'src/main.ts',
    "import { version } from './lib/version.js';\nconsole.log('server', version);\n",
  );
  write('src/migrateMain.ts', "console.log('migrated');\n");
  write(
    'src/cli/cliMain.ts',
    'declare const process: { argv: string[] };\nconsole.log(JSON.stringify(process.argv.slice(2)));\n',
  );
  write('src/lib/version.ts', 'export const version = 1;\n');
  // the real esbuild: a build bundles the CLI, and bin/listkeeper.js runs that bundle
  mkdirSync(path.join(tree, 'node_modules'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules/esbuild'), path.join(tree, 'node_modules/esbuild'));
  // a package.json without "type": the fake tsc is CommonJS, like the real one
  write('node_modules/typescript/package.json', '{"name":"typescript"}\n');
  write(
    'node_modules/typescript/bin/tsc',
    `require('node:fs').appendFileSync(${JSON.stringify(TSC_LOG())}, process.pid + '\\n');\n` +
      `require(${JSON.stringify(path.join(ROOT, 'node_modules/typescript/bin/tsc'))});\n`,
  );
});
afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe('build freshness (no compilation on the command path)', { timeout: 120_000 }, () => {
  it('the listkeeper bin is an executable Node script and npm ci builds (prepare)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ listkeeper: 'bin/listkeeper.js' });
    expect(readFileSync(path.join(ROOT, pkg.bin.listkeeper!), 'utf8')).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    );
    expect(statSync(path.join(ROOT, pkg.bin.listkeeper!)).mode & 0o111).not.toBe(0);
    // npm ci in a fresh clone leaves a compiled dist/
    expect(pkg.scripts.prepare).toBe('node scripts/ensure-build.mjs');
  });

  it('a tree without dist/ is compiled once (npm ci runs prepare), printing nothing on stdout', async () => {
    const res = await check();
    expect(res, res.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(tscCalls()).toBe(1);
    for (const file of [
      'main.js',
      'migrateMain.js',
      'cli/cliMain.js',
      'cli-bundle/cliMain.js',
      '.build-stamp',
    ]) {
      expect(existsSync(path.join(tree, 'dist', file)), file).toBe(true);
    }
  });

  it('npm start, npm run migrate and npm run cli on an up-to-date tree run dist/ without calling tsc or touching dist/', async () => {
    const before = mtimes(path.join(tree, 'dist'));
    const start = await npm('start');
    expect(start, start.stderr).toMatchObject({ code: 0, stdout: 'server 1\n' });
    const migrate = await npm('migrate');
    expect(migrate, migrate.stderr).toMatchObject({ code: 0, stdout: 'migrated\n' });
    // `npm run --silent cli -- … --json` prints the CLI's stdout and nothing else
    // (docs/operations.md, "Output")
    const cli = await npm('cli', '--', ...CLI_ARGS);
    expect(cli, cli.stderr).toMatchObject({ code: 0, stdout: CLI_OUT, stderr: '' });
    const bin = await exec(process.execPath, ['bin/listkeeper.js', ...CLI_ARGS]);
    expect(bin).toMatchObject({ code: 0, stdout: CLI_OUT, stderr: '' });
    expect(tscCalls()).toBe(1);
    expect(mtimes(path.join(tree, 'dist'))).toEqual(before);
  });

  it('a changed source file makes the next npm start rebuild, once', async () => {
    edit('src/lib/version.ts', 'export const version = 2;\n');
    const first = await npm('start');
    expect(first, first.stderr).toMatchObject({ code: 0, stdout: 'server 2\n' });
    expect(tscCalls()).toBe(2);
    const second = await npm('start');
    expect(second).toMatchObject({ code: 0, stdout: 'server 2\n' });
    expect(tscCalls()).toBe(2);
  });

  it('a deleted source file and a changed tsconfig count as changes too', async () => {
    write('src/lib/extra.ts', 'export const extra = 1;\n');
    expect((await check()).code).toBe(0);
    const calls = tscCalls();
    rmSync(path.join(tree, 'src/lib/extra.ts'));
    expect((await check()).code).toBe(0);
    expect(tscCalls()).toBe(calls + 1);
    edit('tsconfig.build.json', readFileSync(path.join(tree, 'tsconfig.build.json'), 'utf8'));
    expect((await check()).code).toBe(0);
    expect(tscCalls()).toBe(calls + 2);
  });

  it('ten CLI calls at once on a stale tree run one tsc and all answer', async () => {
    edit('src/lib/version.ts', 'export const version = 3;\n');
    const calls = tscCalls();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => exec(process.execPath, ['bin/listkeeper.js', ...CLI_ARGS])),
    );
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0, stdout: CLI_OUT });
    expect(tscCalls()).toBe(calls + 1);
    expect(existsSync(path.join(tree, 'dist/.build-lock'))).toBe(false);
    expect(readFileSync(path.join(tree, 'dist/lib/version.js'), 'utf8')).toContain('3');
  });

  it('a lock left by a build that died is taken over', async () => {
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    write('dist/.build-lock', String(dead));
    edit('src/lib/version.ts', 'export const version = 4;\n');
    const calls = tscCalls();
    const res = await check();
    expect(res, res.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(tscCalls()).toBe(calls + 1);
    expect(existsSync(path.join(tree, 'dist/.build-lock'))).toBe(false);
  });

  it('a type error fails the command with nothing on stdout, and is compiled again next time', async () => {
    edit('src/lib/version.ts', "export const version: number = 'five';\n");
    const calls = tscCalls();
    const res = await npm('cli', '--', ...CLI_ARGS);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/error TS2322/);
    edit('src/lib/version.ts', 'export const version = 5;\n');
    const fixed = await npm('start');
    expect(fixed, fixed.stderr).toMatchObject({ code: 0, stdout: 'server 5\n' });
    expect(tscCalls()).toBe(calls + 2);
  });

  it('without src/ (the runtime image) dist/ runs as shipped, even with no typescript installed', async () => {
    rmSync(path.join(tree, 'src'), { recursive: true });
    rmSync(path.join(tree, 'node_modules/typescript'), { recursive: true });
    const calls = tscCalls();
    const start = await npm('start');
    expect(start, start.stderr).toMatchObject({ code: 0, stdout: 'server 5\n' });
    const cli = await exec(process.execPath, ['bin/listkeeper.js', ...CLI_ARGS]);
    expect(cli).toMatchObject({ code: 0, stdout: CLI_OUT, stderr: '' });
    expect(tscCalls()).toBe(calls);
  });

  it('without src/ and dist/ (npm ci before the sources are copied in) prepare does nothing', async () => {
    rmSync(path.join(tree, 'dist'), { recursive: true });
    const res = await check();
    expect(res).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(path.join(tree, 'dist'))).toBe(false);
  });
});
