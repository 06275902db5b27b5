import type { Database } from '../../src/infra/db/client.js';
import { seedContact } from './contacts.js';
import { createBot, makeInvitedProject, makeTenant, type Tenant } from './factories.js';

/** 2024-01-01T00:00:00Z, the creation time the contact world counts from (Unix seconds). */
export const T0 = 1_704_067_200;
export const at = (seconds: number) => new Date((T0 + seconds) * 1000);

export interface ContactWorld {
  owner: Tenant;
  other: Tenant;
  /** a second bot of the owner's project */
  botB: number;
  /** a bot of `other`'s project where the owner is only an invited member */
  invitedBot: number;
  /** one contact of each messenger, plus a preview contact and other accounts' contacts */
  ids: Record<string, number>;
}

/**
 * The contacts getContacts and getNumberOfContacts are tested on: every messenger on the
 * owner's bot at known times, a preview contact, one on a second bot, and contacts of another
 * account and of a project the owner is only invited to.
 */
export async function seedContactWorld(db: Database): Promise<ContactWorld> {
  const ids: Record<string, number> = {};
  const owner = await makeTenant(db);
  const other = await makeTenant(db);
  const botB = (await createBot(db, owner.projectUuid, 'B')).id;
  const invitedBot = (await makeInvitedProject(db, other, owner)).botId;

  ids.telegram = await seedContact(db, owner.botId, {
    messenger: 'telegram',
    telegram_id: 4_503_599_627_370_497,
    telegram_username: 'ada',
    name: 'Ada',
    phone: '79991234567',
    email: 'ada@example.test',
    address: 'London',
    avatar: 'https://cdn.example.test/a.jpg',
    tags: ['vip', 'beta'],
    created_at: at(0),
    unsubscribed_at: at(100),
    variables: [
      { name: 'utm_source', value: 'ads' },
      { name: 'city', value: 'London' },
      { name: 'utm_medium', value: 'cpc' },
      { name: 'photo', value: 'https://cdn.example.test/p.jpg', type: 1 },
    ],
  });
  ids.max = await seedContact(db, owner.botId, {
    messenger: 'max',
    max_user_id: 777,
    max_username: 'maxi',
    created_at: at(10),
  });
  ids.preview = await seedContact(db, owner.botId, { preview: true, created_at: at(15) });
  ids.vk = await seedContact(db, owner.botId, {
    messenger: 'vk',
    vk_user_id: 888,
    created_at: at(20),
  });
  ids.otherBot = await seedContact(db, botB, { created_at: at(25) });
  ids.viber = await seedContact(db, owner.botId, {
    messenger: 'viber',
    viber_id: 'vb==1',
    created_at: new Date((T0 + 30.5) * 1000),
  });
  ids.web = await seedContact(db, owner.botId, { messenger: 'web', created_at: at(40) });
  ids.foreign = await seedContact(db, other.botId, { created_at: at(5) });
  ids.invited = await seedContact(db, invitedBot, { created_at: at(5) });
  return { owner, other, botB, invitedBot, ids };
}
