import { setBlocked } from '../../operator/operatorAccounts.js';
import { defineCommand } from '../command.js';

export const accountUnblock = defineCommand({
  title: 'Account unblocked.',
  flags: {
    id: { description: 'account ID', required: true, kind: 'id', placeholder: 'ID' },
  },
  async run({ db, accountChanged }, flags) {
    const result = await setBlocked(db, flags.id, false);
    await accountChanged(flags.id);
    return { id: result.id, blocked: result.blocked };
  },
});
