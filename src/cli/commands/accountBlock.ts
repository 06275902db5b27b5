import { setBlocked } from '../../operator/operatorAccounts.js';
import { defineCommand } from '../command.js';

export const accountBlock = defineCommand({
  title: 'Account blocked.',
  flags: {
    id: { description: 'account ID', required: true, kind: 'id', placeholder: 'ID' },
  },
  async run({ db, accountChanged }, flags) {
    const result = await setBlocked(db, flags.id, true);
    await accountChanged(flags.id);
    return { id: result.id, blocked: result.blocked };
  },
});
