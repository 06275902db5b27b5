import { regenerateKey } from '../../operator/operatorAccounts.js';
import { defineCommand } from '../command.js';

export const accountRegenerateKey = defineCommand({
  title: 'New API key issued; the old one no longer works.',
  flags: {
    id: { description: 'account ID', required: true, kind: 'id', placeholder: 'ID' },
  },
  async run({ db, accountChanged }, flags) {
    const result = await regenerateKey(db, flags.id);
    await accountChanged(flags.id);
    return { id: result.id, api_key: result.api_key };
  },
});
