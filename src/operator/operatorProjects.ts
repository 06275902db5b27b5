import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { sqlState, UNIQUE_VIOLATION } from '../infra/db/databaseErrors.js';
import { accounts, projectMembers, projects } from '../infra/db/schema/index.js';
import { OperatorError } from './operatorError.js';

export async function createProject(db: Database, ownerId: number, name?: string) {
  await requireAccount(db, ownerId);
  const uuid = randomUUID();
  const projectName = name ?? 'Project';
  await db.insert(projects).values({ uuid, ownerId, name: projectName });
  return { uuid, owner: ownerId, name: projectName };
}

/** A team member: the project stays its owner's; the member's key does not reach it (the API conventions). */
export async function addProjectMember(db: Database, projectUuid: string, accountId: number) {
  await requireProject(db, projectUuid);
  await requireAccount(db, accountId);
  try {
    await db.insert(projectMembers).values({ projectUuid, accountId });
  } catch (err) {
    if (sqlState(err) !== UNIQUE_VIOLATION) throw err;
  }
  return { project: projectUuid, account: accountId };
}

export async function requireProject(db: Database, uuid: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) {
    throw new OperatorError(`no project with uuid ${uuid}`);
  }
  const [row] = await db.select().from(projects).where(eq(projects.uuid, uuid));
  if (!row) throw new OperatorError(`no project with uuid ${uuid}`);
  return row;
}

async function requireAccount(db: Database, id: number) {
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, id));
  if (!row) throw new OperatorError(`no account with id ${id}`);
}
