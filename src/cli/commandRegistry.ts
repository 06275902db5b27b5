import type { CommandBody, CommandHead } from './command.js';

/** A command as --help lists it; `load` imports its file only when it runs. */
export interface CommandEntry extends CommandHead {
  load(): Promise<CommandBody>;
}

/**
 * Every operator command (docs/operations.md, "Operator CLI"), in --help order. Each file is
 * imported only by the command that runs, so a call loads what it uses and no more. To add
 * one: a file in commands/ and one entry here.
 */
export const commands: readonly CommandEntry[] = [
  {
    name: 'account create',
    summary: 'Create an account and print its API key (shown only this once).',
    load: async () => (await import('./commands/accountCreate.js')).accountCreate,
  },
  {
    name: 'account regenerate-key',
    summary: 'Issue a new API key; the old key answers 401 at once (the authentication rules).',
    load: async () => (await import('./commands/accountRegenerateKey.js')).accountRegenerateKey,
  },
  {
    name: 'account set-password',
    summary:
      'Set the password (argon2id); like a regeneration, the API key is reset (the authentication rules).',
    load: async () => (await import('./commands/accountSetPassword.js')).accountSetPassword,
  },
  {
    name: 'account set-plan',
    summary: 'Change the plan; without Pro the key answers 402 (the authentication rules).',
    load: async () => (await import('./commands/accountSetPlan.js')).accountSetPlan,
  },
  {
    name: 'account block',
    summary: 'Block the account: its key answers 403 (the authentication rules).',
    load: async () => (await import('./commands/accountBlock.js')).accountBlock,
  },
  {
    name: 'account unblock',
    summary: 'Lift a block: the same key works again.',
    load: async () => (await import('./commands/accountUnblock.js')).accountUnblock,
  },
  {
    name: 'project create',
    summary: "Create a project owned by an account (the owner's key reaches it).",
    load: async () => (await import('./commands/projectCreate.js')).projectCreate,
  },
  {
    name: 'project add-member',
    summary:
      "Invite an account as a team member; the member's key does not reach the project (the API conventions).",
    load: async () => (await import('./commands/projectAddMember.js')).projectAddMember,
  },
  {
    name: 'bot create',
    summary: "Create a bot in a project (it belongs to the project's owner).",
    load: async () => (await import('./commands/botCreate.js')).botCreate,
  },
  {
    name: 'contact import',
    summary:
      'Import contacts into a bot from NDJSON (one contact per line, in the shape getContacts answers with).',
    load: async () => (await import('./commands/contactImport.js')).contactImport,
  },
  {
    name: 'lists import',
    summary:
      "Import records into a list from NDJSON (addListItem's data, one per line) or CSV (a header row of slugs).",
    load: async () => (await import('./commands/listsImport.js')).listsImport,
  },
  {
    name: 'lists export',
    summary:
      'Export the records of a list as NDJSON or CSV, as getListItems shows them; filters and order as getListItems takes them.',
    load: async () => (await import('./commands/listsExport.js')).listsExport,
  },
  {
    name: 'lists reseal',
    summary:
      'Re-encrypt values sealed with a retired key (ENCRYPTION_OLD_KEYS) under ENCRYPTION_KEY.',
    load: async () => (await import('./commands/listsReseal.js')).listsReseal,
  },
  {
    name: 'tenant move',
    summary:
      "On Citus: move an account's shards to another worker while serving, the change feed kept in order.",
    load: async () => (await import('./commands/tenantMove.js')).tenantMove,
  },
];

export function findCommand(words: readonly string[]): CommandEntry | undefined {
  return commands.find((c) => c.name === words.slice(0, 2).join(' '));
}
