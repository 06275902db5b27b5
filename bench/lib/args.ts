/**
 * The one command line of every bench entry: `--name` switches and `--name value` options,
 * checked against what the entry declares (node:util parseArgs, strict), and `--help`, which
 * prints the entry's usage and exits. A mistyped flag or a value that is not a number ends
 * the run at once with the usage (exit code 2), never a silent default.
 */
import { parseArgs } from 'node:util';

export interface CommandLine<F extends string, O extends string> {
  /** how the entry is run, e.g. `npm run bench:sweep -- [options]` */
  usage: string;
  /** what it measures, one or two lines */
  about: string;
  /** switches: name → what it does */
  flags?: Record<F, string>;
  /** options taking a value: name → `VALUE  what it sets (default)` */
  options?: Record<O, string>;
  /** positional arguments, for --help (e.g. `<API path with query>`); none when absent */
  positionals?: string;
}

export interface BenchArgs<F extends string, O extends string> {
  flag(name: F): boolean;
  /** the option's text, undefined when not given */
  text(name: O): string | undefined;
  /** the option as a number, `fallback` when not given; anything but a number is refused */
  number(name: O, fallback: number): number;
  /** the option's comma-separated items, undefined when not given */
  list(name: O): string[] | undefined;
  positionals: string[];
}

/** Parses `argv` (default: this process's arguments) against `cli`; --help prints and exits 0. */
export function benchArgs<F extends string = never, O extends string = never>(
  cli: CommandLine<F, O>,
  argv: string[] = process.argv.slice(2),
): BenchArgs<F, O> {
  const flags = (cli.flags ?? {}) as Record<string, string>;
  const options = (cli.options ?? {}) as Record<string, string>;
  const help = () => usageText(cli, flags, options);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: cli.positionals !== undefined,
      options: {
        help: { type: 'boolean' },
        ...Object.fromEntries(Object.keys(flags).map((name) => [name, { type: 'boolean' }])),
        ...Object.fromEntries(Object.keys(options).map((name) => [name, { type: 'string' }])),
      },
    });
  } catch (err) {
    refuse(err instanceof Error ? err.message : String(err), help());
  }
  if (parsed.values.help) {
    process.stdout.write(help());
    process.exit(0);
  }
  const text = (name: O) => parsed.values[name] as string | undefined;
  return {
    flag: (name) => parsed.values[name] === true,
    text,
    number(name, fallback) {
      const value = text(name);
      if (value === undefined) return fallback;
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) {
        refuse(`--${name} takes a number, not '${value}'`, help());
      }
      return n;
    },
    list: (name) => text(name)?.split(','),
    positionals: parsed.positionals,
  };
}

function usageText(
  cli: CommandLine<string, string>,
  flags: Record<string, string>,
  options: Record<string, string>,
): string {
  const rows = [
    ...Object.entries(options).map(([name, what]) => `  --${name} ${what}`),
    ...Object.entries(flags).map(([name, what]) => `  --${name}  ${what}`),
    '  --help  this text',
  ];
  return [`usage: ${cli.usage}`, '', cli.about, '', 'options:', ...rows, ''].join('\n');
}

function refuse(message: string, help: string): never {
  process.stderr.write(`${message}\n\n${help}`);
  process.exit(2);
}
