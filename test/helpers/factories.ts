import { randomBytes } from 'node:crypto';
import type { Database } from '../../src/infra/db/client.js';
import { createAccount, type NewAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { addProjectMember, createProject } from '../../src/operator/operatorProjects.js';

export interface Tenant {
  accountId: number;
  apiKey: string;
  projectUuid: string;
  botId: number;
}

const unique = () => randomBytes(5).toString('hex');

/** An account with one project and one bot, as the operator CLI would set it up. */
export async function makeTenant(db: Database, account: Partial<NewAccount> = {}): Promise<Tenant> {
  const created = await createAccount(db, { email: `u${unique()}@example.test`, ...account });
  const project = await createProject(db, created.id, 'Project');
  const bot = await createBot(db, project.uuid, 'Bot');
  return {
    accountId: created.id,
    apiKey: created.api_key,
    projectUuid: project.uuid,
    botId: bot.id,
  };
}

/** A project owned by `owner` where `member` is only invited as a team member (the API conventions). */
export async function makeInvitedProject(db: Database, owner: Tenant, member: Tenant) {
  const project = await createProject(db, owner.accountId, 'Shared');
  const bot = await createBot(db, project.uuid, 'Shared bot');
  await addProjectMember(db, project.uuid, member.accountId);
  return { projectUuid: project.uuid, botId: bot.id };
}

export { createBot, createProject };
