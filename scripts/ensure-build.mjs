// Keeps dist/ in step with src/ without paying for a `tsc` run on every command: `npm start`,
// `npm run migrate` and the CLI call this first, and it compiles only when an input is newer
// than the stamp of the last successful build. Dependency-free on purpose (plain Node, no
// tsx): it runs before anything is built, and in the runtime image, which has no compiler.
//
//   node scripts/ensure-build.mjs                    compile if stale (prepare)
//   node scripts/ensure-build.mjs --run dist/main.js  compile if stale, then run the entry in
//                                                    this process (npm start, npm run migrate)
//   node scripts/ensure-build.mjs --force            compile unconditionally (npm run build)
//
// It never writes to stdout: `npm run --silent cli -- … --json` output is parsed by scripts,
// so tsc's diagnostics go to stderr.
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
/** Its mtime is the start of the last successful build; see build(). */
const STAMP = path.join(DIST, '.build-stamp');
const LOCK = path.join(DIST, '.build-lock');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
/** The browser console's entry; where it exists, a build also bundles it (console-bundle.mjs). */
const CONSOLE_ENTRY = path.join(SRC, 'console/web/consoleMain.ts');
const CONSOLE_BUNDLE = path.join(DIST, 'console-web/console.js');
/** The operator CLI as one bundle (cli-bundle.mjs), what bin/listkeeper.js runs. */
const CLI_BUNDLE = path.join(DIST, 'cli-bundle/cliMain.js');
/** Besides src/: files that change what tsc emits (compiler options, module type, versions). */
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
/** Longer than any real build on a loaded machine; past it a waiter gives up instead of hanging. */
const LOCK_WAIT_MS = 5 * 60_000;

function mtimeOf(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Directories count too: deleting or renaming a file changes only its directory's mtime.
 * With ~200 files this is a few milliseconds of stat calls.
 */
function newestUnder(dir) {
  let newest = mtimeOf(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(full) : mtimeOf(full));
  }
  return newest;
}

function isStale() {
  const stamp = mtimeOf(STAMP);
  if (stamp === 0) return true;
  if (existsSync(CONSOLE_ENTRY) && mtimeOf(CONSOLE_BUNDLE) === 0) return true;
  if (mtimeOf(CLI_BUNDLE) === 0) return true;
  let newest = newestUnder(SRC);
  for (const file of INPUT_FILES) newest = Math.max(newest, mtimeOf(path.join(ROOT, file)));
  // `>=`: on a file system with coarse timestamps an edit in the build's first second ties
  // with the stamp; one extra build is cheaper than running stale code.
  return newest >= stamp;
}

function fail(message) {
  process.stderr.write(`listkeeper: build: ${message}\n`);
  return 1;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/**
 * One build at a time per checkout: ten CLI calls on a stale tree would otherwise start ten
 * tsc processes writing the same files. Chosen over building into a temporary directory and
 * renaming it because tsc's incremental state lives in dist/ (a fresh directory would mean a
 * full build each time), and because the waiters then find the tree built and run at once.
 * The lock file holds the owner's PID, so one left by a killed build is taken over.
 */
async function withLock(work) {
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const fd = createLock();
    if (fd === undefined) {
      const owner = lockOwner();
      // An empty file is an owner between creating and writing it, not a dead one.
      if (owner !== undefined && !alive(owner)) {
        removeLock();
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`${LOCK} has been held by process ${owner} for 5 minutes`);
      }
      await sleep(50);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return await work();
    } finally {
      removeLock();
    }
  }
}

/** The descriptor of a newly created lock file, or undefined when another process holds it. */
function createLock() {
  try {
    return openSync(LOCK, 'wx');
  } catch (err) {
    if (err.code === 'EEXIST') return undefined;
    throw err;
  }
}

function lockOwner() {
  try {
    const pid = Number.parseInt(readFileSync(LOCK, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // released meanwhile: the next attempt takes it
  }
}

function removeLock() {
  try {
    unlinkSync(LOCK);
  } catch {
    // already removed, by its owner or by another waiter that found the owner dead
  }
}

function runTsc() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
      stdio: ['ignore', 2, 2],
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(signal ? 128 : (code ?? 1)));
  });
}

async function build() {
  // Taken before tsc reads anything: a source saved while it runs is newer than the stamp,
  // so the next call builds again instead of trusting output made from the older text.
  const started = new Date();
  const code = await runTsc();
  // Without a stamp a failed build (type errors) is retried by the next call, as before.
  if (code !== 0) return fail(`tsc -p tsconfig.build.json exited with ${code}`);
  if (existsSync(CONSOLE_ENTRY)) {
    try {
      // The browser console's bundle, served by the same process.
      const { bundleConsole } = await import('./console-bundle.mjs');
      await bundleConsole();
    } catch (err) {
      return fail(`console bundle: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  try {
    const { bundleCli } = await import('./cli-bundle.mjs');
    await bundleCli();
  } catch (err) {
    return fail(`CLI bundle: ${err instanceof Error ? err.message : String(err)}`);
  }
  writeFileSync(STAMP, '');
  utimesSync(STAMP, started, started);
  return 0;
}

/** Resolves with an exit code; 0 means dist/ may be run. */
export async function ensureBuild({ force = false } = {}) {
  // The runtime image and `npm ci` before src/ is copied in (the Dockerfile's build stage):
  // nothing to compile from; dist/ is whatever was shipped.
  if (!existsSync(SRC)) return 0;
  if (!force && !isStale()) return 0;
  if (!existsSync(TSC)) {
    // `npm ci --omit=dev` in a checkout: run what was built rather than refuse to start.
    if (!force && existsSync(path.join(DIST, 'main.js'))) {
      process.stderr.write(
        'listkeeper: warning: src/ is newer than dist/, but typescript is not installed; running the existing dist/\n',
      );
      return 0;
    }
    return fail('dist/ needs compiling and typescript is not installed (npm ci installs it)');
  }
  try {
    return await withLock(() => (!force && !isStale() ? 0 : build()));
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const code = await ensureBuild({ force: args.includes('--force') });
  const entry = args.includes('--run') ? args[args.indexOf('--run') + 1] : undefined;
  // In-process rather than a `prestart` script: a second Node start costs 0.15–0.2 s on the
  // benchmark machine (docs/benchmarks.md).
  if (code === 0 && entry) await import(pathToFileURL(path.resolve(ROOT, entry)).href);
  else process.exitCode = code;
}
