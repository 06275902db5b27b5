import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';
import { cliEnvBeside } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

// `contact import` run as the operator runs it: the built CLI, next to a running app.
let env: Record<string, string>;
const dir = mkdtempSync(path.join(tmpdir(), 'lk-contact-import-'));

const t = testAppForFile({ tenants: ['owner'] });
beforeAll(async () => {
  await ensureBuilt();
  env = cliEnvBeside(t);
}, 180_000);

function ndjson(name: string, lines: (string | object)[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
}

describe('contact import in the operator CLI (docs/operations.md)', () => {
  it('prints exactly {imported, updated, failed} with --json, bad lines one per line on stderr', async () => {
    const file = ndjson('mixed.ndjson', [
      { messenger: 'telegram', telegram_id: 31, name: 'A' },
      'oops',
      { messenger: 'telegram', telegram_id: 31, name: 'A again' },
      { messenger: 'vk', name: 'no id' },
      { messenger: 'web', name: 'W' },
    ]);
    const res = await runCli(
      ['contact', 'import', '--bot', String(t.owner.botId), '--file', file, '--json'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('{"imported":2,"updated":1,"failed":2}\n');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => /^line \d+: /.test(l)).map((l) => l.split(':')[0])).toEqual([
      'line 2',
      'line 4',
    ]);
    // the progress bar (stderr is not a terminal here: its final state as a line)
    expect(lines.at(-1)).toMatch(/^\[#+\] 100% 5 lines, 2 imported, 1 updated, 2 failed$/);
    const listed = await call(
      t.app,
      'getContacts',
      { bot_id: t.owner.botId },
      { key: t.owner.apiKey },
    );
    expect(listed.body.data.map((c: { name: string }) => c.name)).toEqual(['A again', 'W']);
  });

  it('prints the counts for people without --json', async () => {
    const file = ndjson('one.ndjson', [{ messenger: 'max', max_user_id: 5, name: 'M' }]);
    const res = await runCli(
      ['contact', 'import', '--bot', String(t.owner.botId), '--file', file],
      env,
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^Contacts imported\.\n\s+imported:\s+1\n\s+updated:\s+0\n\s+failed:\s+0\n$/,
    );
  });

  it.each([
    [['--bot', '999999999', '--file', 'FILE'], 1, /no bot with id 999999999/],
    [['--bot', 'BOT', '--file', '/nonexistent/contacts.ndjson'], 1, /cannot read --file/],
    [['--file', 'FILE'], 2, /needs --bot/],
    [['--bot', 'x', '--file', 'FILE'], 2, /--bot must be a positive integer/],
  ])('fails with one stderr line and nothing on stdout for %j', async (args, code, message) => {
    const file = ndjson('any.ndjson', [{ messenger: 'web', name: 'x' }]);
    const argv = args.map((a) => (a === 'FILE' ? file : a === 'BOT' ? String(t.owner.botId) : a));
    const res = await runCli(['contact', 'import', ...argv, '--json'], env);
    expect(res.code).toBe(code);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});
