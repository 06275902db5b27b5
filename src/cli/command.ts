import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../infra/db/client.js';

/**
 * One flag of one command. `kind` says how the text is checked before anything opens the
 * database, so a typo costs no connection: `id` is a positive integer, `email` an address,
 * `path` a file path made absolute against the directory the operator typed the command in.
 */
export interface FlagSpec {
  description: string;
  required?: boolean;
  kind?: 'text' | 'id' | 'email' | 'path';
  /** the only accepted values (e.g. `pro`, `free`) */
  choices?: readonly string[];
  /** shown in --help as `--flag <placeholder>` */
  placeholder?: string;
}

type FlagValue<S extends FlagSpec> = S extends { choices: readonly (infer C)[] }
  ? C
  : S extends { kind: 'id' }
    ? number
    : string;

/** The parsed flags of a command, typed from its specs. */
export type FlagValues<F extends Record<string, FlagSpec>> = {
  [K in keyof F]: F[K] extends { required: true } ? FlagValue<F[K]> : FlagValue<F[K]> | undefined;
};

/** What a command may use; the CLI entry builds it from the same config as the server. */
export interface CommandContext {
  db: Database;
  config: Config;
  /** JSON log lines go to stderr, never stdout (stdout is the command's result) */
  log: Logger;
  /** progress and warnings for people (one line each); stdout stays the result only */
  stderr: NodeJS.WriteStream;
  /** true with --json: a script reads stdout */
  json: boolean;
  /** tells running servers to drop cached keys of the account (see notifyServers.ts) */
  accountChanged(accountId: number): Promise<void>;
  /** what the command writes as its output when it has no --file (lists export) */
  stdout: NodeJS.WritableStream;
}

/** A result is one flat JSON object; its keys are a contract (docs/operations.md). */
export type CommandResult = Record<string, string | number | boolean | null>;

/**
 * What a command's file defines: its flags and what it does. Its name and summary live in
 * commandRegistry.ts, so `--help` lists every command without loading any of them.
 */
export interface CommandBody<F extends Record<string, FlagSpec> = Record<string, FlagSpec>> {
  flags: F;
  /** first line of the human output, e.g. "Account created." */
  title: string;
  /** the command writes its output to stdout with these flags: the result goes to stderr */
  usesStdout?(flags: FlagValues<F>): boolean;
  run(ctx: CommandContext, flags: FlagValues<F>): Promise<CommandResult>;
}

/** How a command is named and listed (commandRegistry.ts). */
export interface CommandHead {
  /** two words, as typed: `account create` */
  name: string;
  summary: string;
}

/** A command about to run: its registry entry and its file together. */
export type Command<F extends Record<string, FlagSpec> = Record<string, FlagSpec>> = CommandHead &
  CommandBody<F>;

/** Keeps the flag specs' literal types so `run` receives typed values. */
export function defineCommand<const F extends Record<string, FlagSpec>>(
  command: CommandBody<F>,
): CommandBody<F> {
  return command;
}

/** Flags every command accepts. */
export const GLOBAL_FLAGS = {
  json: 'print exactly one JSON object on stdout (for scripts)',
  help: 'show the command and its flags',
} as const;

/** A provisioning or usage failure that is the operator's to fix; printed as one line. */
export class UsageError extends Error {}
