import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { queryRows } from '../infra/db/client.js';
import { createAccount } from '../operator/operatorAccounts.js';
import { createBot } from '../operator/operatorBots.js';
import { createProject } from '../operator/operatorProjects.js';

export interface DemoAccount {
  api_key: string;
  account_id: number;
  project_uuid: string;
  bot_id: number;
}

/**
 * Embedded first start (docs/operations.md): an empty database gets a demo Pro
 * account with one project and one bot, so a first curl works with nothing set up.
 */
export async function ensureDemoAccount(
  db: Database,
  dataDir: string,
): Promise<DemoAccount | undefined> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from accounts`);
  if ((row?.n ?? 0) > 0) return undefined;
  const account = await createAccount(db, {
    email: 'demo@listkeeper.local',
    name: 'Demo',
    plan: 'pro',
  });
  const project = await createProject(db, account.id, 'Demo project');
  const bot = await createBot(db, project.uuid, 'Demo bot');
  const demo: DemoAccount = {
    api_key: account.api_key,
    account_id: account.id,
    project_uuid: project.uuid,
    bot_id: bot.id,
  };
  writeFileSync(path.resolve(dataDir, 'demo-account.json'), `${JSON.stringify(demo, null, 2)}\n`, {
    mode: 0o600,
  });
  return demo;
}
