import { setBlocked, setPlan } from '../../../src/operator/operatorAccounts.js';
import { call } from '../../helpers/call.js';
import { createBot, makeInvitedProject, makeTenant, type Tenant } from '../../helpers/factories.js';
import type { TestApp } from '../../helpers/testApp.js';
import { MAIN_FIELDS, type FuzzIds } from './params.js';
import type { Keys } from './request.js';

export interface FuzzWorld {
  owner: Tenant;
  other: Tenant;
  keys: Keys;
  /** ids shared by every method's run (foreign, invited, deleted objects) */
  base: Omit<FuzzIds, 'ownLists' | 'ownRecords'>;
}

async function must(t: TestApp, key: string, method: string, params: Record<string, unknown>) {
  const res = await call(t.app, method, params, { key });
  if (res.status >= 300) throw new Error(`${method}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function newList(
  t: TestApp,
  tenant: Tenant,
  where = { project_uuid: tenant.projectUuid },
) {
  const fields = MAIN_FIELDS.map((f) => ({ is_required: false, ...f, name: f.slug }));
  const body = await must(t, tenant.apiKey, 'createListSchema', { name: 'Fuzz', fields, ...where });
  return body.data.id as string;
}

export async function newRecord(t: TestApp, tenant: Tenant, listId: string) {
  const data = { title: 'canary-record', n: 7, ok: true, secret: 'canary-secret' };
  const body = await must(t, tenant.apiKey, 'addListItem', { schema_id: listId, data });
  return body.data.id as string;
}

async function newContact(t: TestApp, tenant: Tenant, botId: number, telegramId: number) {
  const body = await must(t, tenant.apiKey, 'createOrUpdateContact', {
    bot_id: botId,
    messenger: 'telegram',
    telegram_id: telegramId,
    name: 'Canary Contact',
    phone: '+15550001234',
  });
  return body.data.id as number;
}

/** Two accounts, a project where the owner is only a team member, a free and a blocked account. */
export async function buildWorld(t: TestApp): Promise<FuzzWorld> {
  const owner = await makeTenant(t.db);
  const other = await makeTenant(t.db);
  const free = await makeTenant(t.db);
  const blocked = await makeTenant(t.db);
  await setPlan(t.db, free.accountId, 'free');
  await setBlocked(t.db, blocked.accountId, true);
  const invited = await makeInvitedProject(t.db, other, owner);
  const secondBot = await createBot(t.db, owner.projectUuid, 'Second');

  const foreignList = await newList(t, other);
  const invitedList = await newList(t, other, { project_uuid: invited.projectUuid });
  const deletedList = await newList(t, owner);
  const doomed = await newRecord(t, owner, deletedList);
  await must(t, owner.apiKey, 'deleteListSchema', { schema_id: deletedList });
  const keptList = await newList(t, owner);
  const deletedRecord = await newRecord(t, owner, keptList);
  await must(t, owner.apiKey, 'deleteListItem', { item_id: deletedRecord });

  const ownContacts = [
    await newContact(t, owner, owner.botId, 1001),
    await newContact(t, owner, secondBot.id, 1002),
  ];
  const foreignContact = await newContact(t, other, other.botId, 1003);
  return {
    owner,
    other,
    keys: { owner: owner.apiKey, other: other.apiKey, free: free.apiKey, blocked: blocked.apiKey },
    base: {
      foreignList,
      invitedList,
      deletedList,
      foreignRecord: await newRecord(t, other, foreignList),
      deletedRecords: [deletedRecord, doomed],
      ownBots: [owner.botId, secondBot.id],
      foreignBot: other.botId,
      invitedBot: invited.botId,
      ownProject: owner.projectUuid,
      foreignProject: other.projectUuid,
      invitedProject: invited.projectUuid,
      ownContacts,
      foreignContact,
    },
  };
}

/** Fresh lists and records of the owner for one method's run (deletes must not starve others). */
export async function freshTargets(t: TestApp, world: FuzzWorld, lists = 4, recordsPerList = 3) {
  const ownLists: string[] = [];
  const ownRecords: string[] = [];
  for (let i = 0; i < lists; i++) {
    const id = await newList(t, world.owner);
    ownLists.push(id);
    for (let j = 0; j < recordsPerList; j++) ownRecords.push(await newRecord(t, world.owner, id));
  }
  return { ...world.base, ownLists, ownRecords };
}
