import type { Database } from '../infra/db/client.js';
import { bots } from '../infra/db/schema/index.js';
import { requireProject } from './operatorProjects.js';

export async function createBot(db: Database, projectUuid: string, name?: string) {
  const project = await requireProject(db, projectUuid);
  const botName = name ?? 'Bot';
  const [row] = await db
    .insert(bots)
    .values({ projectUuid, ownerId: project.ownerId, name: botName })
    .returning({ id: bots.id });
  return { id: row!.id, project: projectUuid, name: botName };
}
