import { afterEach, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/args.js';
import { defineCommand, UsageError, type Command } from '../../src/cli/command.js';

// Flag parsing of the operator CLI (docs/operations.md "Operator CLI"), without a process.
const sample: Command = {
  name: 'sample run',
  summary: 'a command for the tests',
  ...defineCommand({
    title: 'Done.',
    flags: {
      id: { description: 'an id', required: true, kind: 'id' },
      email: { description: 'an email', kind: 'email' },
      plan: { description: 'a plan', choices: ['pro', 'free'] },
      file: { description: 'a file', kind: 'path' },
      name: { description: 'free text' },
    },
    async run() {
      return {};
    },
  }),
};

const initCwd = process.env.INIT_CWD;
afterEach(() => {
  if (initCwd === undefined) delete process.env.INIT_CWD;
  else process.env.INIT_CWD = initCwd;
});

function usage(args: string[]): string {
  try {
    parseCommandArgs(sample, args);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected a usage error');
}

describe('operator CLI flags', () => {
  it('parses ids as numbers, keeps text, and reads --json', () => {
    const parsed = parseCommandArgs(sample, ['--id', '42', '--name', ' Ada ', '--json']);
    expect(parsed).toEqual({
      json: true,
      help: false,
      flags: { id: 42, email: undefined, plan: undefined, file: undefined, name: 'Ada' },
    });
    expect(parseCommandArgs(sample, ['--id=7']).flags.id).toBe(7);
  });

  it('resolves a path flag against the directory npm was started in (INIT_CWD)', () => {
    process.env.INIT_CWD = '/home/ops/imports';
    expect(parseCommandArgs(sample, ['--id', '1', '--file', 'a.ndjson']).flags.file).toBe(
      '/home/ops/imports/a.ndjson',
    );
    expect(parseCommandArgs(sample, ['--id', '1', '--file', '/tmp/b.ndjson']).flags.file).toBe(
      '/tmp/b.ndjson',
    );
  });

  it.each([
    [[], /'sample run' needs --id/],
    [['--id', ''], /'sample run' needs --id/],
    [['--id', '0'], /--id must be a positive integer ID \(got '0'\)/],
    [['--id', '1.5'], /--id must be a positive integer/],
    [['--id', '99999999999999999'], /--id must be a positive integer/],
    [['--id', '1', '--email', 'nope'], /--email must be an email address/],
    [['--id', '1', '--plan', 'gold'], /--plan must be one of pro, free \(got 'gold'\)/],
    [['--id', '1', '--colour', 'red'], /unknown flag --colour for 'sample run'/],
    [['--id', '1', 'extra'], /unexpected argument 'extra'/],
    [['--id'], /--id needs a value/],
    [['--id', '1', '--json=yes'], /--json takes no value/],
  ])('%j is a one-line usage error', (args, message) => {
    const text = usage(args);
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  it('with --help skips the checks of required flags', () => {
    expect(parseCommandArgs(sample, ['--help'])).toMatchObject({ help: true });
  });
});
