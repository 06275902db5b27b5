import { EXIT } from './cliExitCodes.js';
import { commands, findCommand } from './commandRegistry.js';
import { describeError } from './describeError.js';
import { formatError, formatOverview } from './output.js';

/**
 * `npm run --silent cli -- <command> [flags] [--json]` (docs/operations.md).
 * stdout carries only the result; everything else, console output of libraries
 * included, goes to stderr, so `--json` output can be piped into a parser.
 *
 * This file imports only what `--help` and a typo need; the command that runs loads its
 * own file and the service's modules (runCommand.ts), so no call pays for the others.
 */
async function main(argv: string[]): Promise<number> {
  console.log = console.info = console.debug = console.error;

  const first = argv[0];
  if (first === undefined) {
    return fail(EXIT.usage, 'no command given; --help lists the commands');
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(formatOverview(commands));
    return EXIT.ok;
  }
  const entry = findCommand(argv);
  if (!entry) {
    const typed = argv
      .filter((a) => !a.startsWith('-'))
      .slice(0, 2)
      .join(' ');
    return fail(
      EXIT.usage,
      `unknown command '${typed}'; commands: ${commands.map((c) => c.name).join(', ')}`,
    );
  }
  const { runCommand } = await import('./runCommand.js');
  return runCommand({ ...entry, ...(await entry.load()) }, argv.slice(2));
}

function fail(code: number, message: string): number {
  process.stderr.write(formatError(message));
  return code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(formatError(describeError(err)));
    process.exit(EXIT.failed);
  },
);
