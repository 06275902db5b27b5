import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { UsageError, type Command, type FlagSpec } from './command.js';

export interface ParsedArgs {
  json: boolean;
  help: boolean;
  flags: Record<string, string | number | undefined>;
}

const email = z.email();

/**
 * Parses and checks the flags of one command with node:util parseArgs (strict: unknown
 * flags and stray words are errors). Every problem is a UsageError with one line of text.
 */
export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  };
  for (const name of Object.keys(command.flags)) options[name] = { type: 'string' };

  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(describeParseError(err, command));
  }

  const flags: Record<string, string | number | undefined> = {};
  if (!values.help) {
    for (const [name, spec] of Object.entries(command.flags)) {
      flags[name] = checkFlag(name, spec, values[name] as string | undefined, command);
    }
  }
  return { json: values.json === true, help: values.help === true, flags };
}

function checkFlag(
  name: string,
  spec: FlagSpec,
  raw: string | undefined,
  command: Command,
): string | number | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '') {
    if (spec.required) throw new UsageError(`'${command.name}' needs --${name}`);
    return undefined;
  }
  if (spec.choices && !spec.choices.includes(value)) {
    throw new UsageError(`--${name} must be one of ${spec.choices.join(', ')} (got '${value}')`);
  }
  if (spec.kind === 'id') {
    if (!/^[1-9]\d{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw new UsageError(`--${name} must be a positive integer ID (got '${value}')`);
    }
    return Number(value);
  }
  if (spec.kind === 'email' && !email.safeParse(value).success) {
    throw new UsageError(`--${name} must be an email address (got '${value}')`);
  }
  // `npm run` moves to the package root; INIT_CWD is where the operator was.
  if (spec.kind === 'path') return path.resolve(process.env.INIT_CWD ?? process.cwd(), value);
  return value;
}

function describeParseError(err: unknown, command: Command): string {
  const code = (err as { code?: string }).code;
  const known = Object.keys(command.flags)
    .map((f) => `--${f}`)
    .join(', ');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(String((err as Error).message))?.[1] ?? 'flag';
    return `unknown flag ${flag} for '${command.name}' (flags: ${known || 'none'}, --json)`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const word = /'([^']+)'/.exec(String((err as Error).message))?.[1] ?? '';
    return `unexpected argument '${word}' for '${command.name}' (flags take the form --name value)`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const message = String((err as Error).message);
    const flag = /'(--[a-z-]+)/.exec(message)?.[1] ?? 'a flag';
    return /does not take an argument/.test(message)
      ? `${flag} takes no value`
      : `${flag} needs a value`;
  }
  return (err as Error).message.split('\n')[0] ?? 'the flags could not be read';
}
