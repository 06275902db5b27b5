import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './freePort.js';

/** Process-level tests run the built entry points, as `npm start` and `npm run cli` do. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_ENTRY = path.join(ROOT, 'dist/main.js');
export const CLI_ENTRY = path.join(ROOT, 'dist/cli-bundle/cliMain.js');

/**
 * Compiles src/ to dist/ when it changed, with the same check `npm start` runs
 * (scripts/ensure-build.mjs): test files that spawn the built service call this in beforeAll,
 * and its lock file keeps parallel files from running tsc over each other.
 */
export async function ensureBuilt(): Promise<void> {
  const result = await run(process.execPath, [path.join(ROOT, 'scripts/ensure-build.mjs')], {});
  // A failed build still emits (type errors elsewhere); the typecheck step reports those.
  if (result.code !== 0 && !existsSync(SERVER_ENTRY)) {
    throw new Error(`build failed:\n${result.stderr}`);
  }
}

/** Only what the child needs: the test runner's own DATABASE_URL etc. must not leak in. */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  return clean;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function run(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `npm run --silent cli -- <args>` without npm: the built CLI entry. */
export function runCli(args: string[], env: Record<string, string | undefined>) {
  return run(process.execPath, [CLI_ENTRY, ...args], env);
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** resolves with the exit code and signal when the process ends */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL if it is still there after 15 s */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node dist/main.js` on a free port and waits until /healthz answers. */
export async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env }),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`server exited before listening:\n${out}\n${err}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /healthz within 60 s:\n${out}\n${err}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** POST /api/v1/<method> with a JSON body over real HTTP, as a client expecting JSON. */
export function postApi(
  url: string,
  method: string,
  params: Record<string, unknown>,
  key?: string,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${url}/api/v1/${method}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: JSON.stringify(params),
    signal,
  });
}

/** Calls a method over real HTTP with a Bearer key, like a client that expects JSON. */
export async function callHttp(
  url: string,
  method: string,
  params: Record<string, unknown>,
  key?: string,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read any shape
): Promise<{ status: number; body: any }> {
  const res = await postApi(url, method, params, key);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export interface Timed {
  status: number;
  ms: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read any shape
  body: any;
  headers: Headers;
  /** the network error when no answer came */
  error?: string;
}

/** One POST with JSON over real HTTP, timed; a network failure is a result, not a throw. */
export async function timedCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  key?: string,
  timeoutMs = 20_000,
): Promise<Timed> {
  const started = performance.now();
  try {
    const res = await postApi(url, method, params, key, AbortSignal.timeout(timeoutMs));
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: the assertion on the body will say so
    }
    return { status: res.status, ms: performance.now() - started, body, headers: res.headers };
  } catch (err) {
    return {
      status: 0,
      ms: performance.now() - started,
      body: null,
      headers: new Headers(),
      error: String((err as { cause?: unknown }).cause ?? err),
    };
  }
}
