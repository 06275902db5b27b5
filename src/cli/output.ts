import { GLOBAL_FLAGS, type Command, type CommandHead, type CommandResult } from './command.js';

const PROGRAM = 'npm run --silent cli --';

/** --json: exactly one JSON object and a newline; scripts parse it. */
export function formatJson(result: CommandResult): string {
  return `${JSON.stringify(result)}\n`;
}

/** For people: the command's title, then one aligned `key: value` line per result key. */
export function formatHuman(command: Command, result: CommandResult): string {
  const width = Math.max(...Object.keys(result).map((k) => k.length));
  const lines = Object.entries(result).map(
    ([key, value]) => `  ${`${key}:`.padEnd(width + 2)}${String(value)}`,
  );
  return [command.title, ...lines, ''].join('\n');
}

/** The one stderr line of a failure, so a script reads why in one line (docs/operations.md). */
export function formatError(message: string): string {
  return `listkeeper: error: ${message.replace(/\s*\n\s*/g, ' ')}\n`;
}

export function formatWarning(message: string): string {
  return `listkeeper: warning: ${message.replace(/\s*\n\s*/g, ' ')}\n`;
}

export function formatOverview(commands: readonly CommandHead[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `usage: ${PROGRAM} <command> [flags] [--json]`,
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width + 2)}${c.summary}`),
    '',
    `"${PROGRAM} <command> --help" shows a command's flags.`,
    '',
  ].join('\n');
}

export function formatCommandHelp(command: Command): string {
  const usage = Object.entries(command.flags).map(([name, spec]) => {
    const flag = `--${name} ${spec.placeholder ?? name.toUpperCase()}`;
    return spec.required ? flag : `[${flag}]`;
  });
  const rows: [string, string][] = [
    ...Object.entries(command.flags).map(([name, spec]): [string, string] => [
      `--${name}`,
      spec.choices ? `${spec.description} (${spec.choices.join(' | ')})` : spec.description,
    ]),
    ...Object.entries(GLOBAL_FLAGS).map(([name, text]): [string, string] => [`--${name}`, text]),
  ];
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: ${PROGRAM} ${command.name} ${usage.join(' ')} [--json]`,
    '',
    command.summary,
    '',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width + 2)}${text}`),
    '',
  ].join('\n');
}
