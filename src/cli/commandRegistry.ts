import type { Command } from './command.js';
import { accountBlock } from './commands/accountBlock.js';
import { accountCreate } from './commands/accountCreate.js';
import { accountRegenerateKey } from './commands/accountRegenerateKey.js';
import { accountSetPassword } from './commands/accountSetPassword.js';
import { accountSetPlan } from './commands/accountSetPlan.js';
import { accountUnblock } from './commands/accountUnblock.js';
import { botCreate } from './commands/botCreate.js';
import { contactImport } from './commands/contactImport.js';
import { listsExport } from './commands/listsExport.js';
import { listsImport } from './commands/listsImport.js';
import { listsReseal } from './commands/listsReseal.js';
import { projectAddMember } from './commands/projectAddMember.js';
import { projectCreate } from './commands/projectCreate.js';

/**
 * Every operator command (docs/operations.md, "Operator CLI"), in --help order.
 * To add one: a file in commands/ and one line here.
 */
export const commands: readonly Command[] = [
  accountCreate,
  accountRegenerateKey,
  accountSetPassword,
  accountSetPlan,
  accountBlock,
  accountUnblock,
  projectCreate,
  projectAddMember,
  botCreate,
  contactImport,
  listsImport,
  listsExport,
  listsReseal,
];

export function findCommand(words: readonly string[]): Command | undefined {
  return commands.find((c) => c.name === words.slice(0, 2).join(' '));
}
