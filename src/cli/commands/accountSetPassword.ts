import { setPassword } from '../../operator/operatorAccounts.js';
import { defineCommand } from '../command.js';

export const accountSetPassword = defineCommand({
  title: 'Password set. The API key was reset; the old one no longer works.',
  flags: {
    id: { description: 'account ID', required: true, kind: 'id', placeholder: 'ID' },
    password: { description: 'the new password', required: true, placeholder: 'P' },
  },
  async run({ db, accountChanged }, flags) {
    const result = await setPassword(db, flags.id, flags.password);
    await accountChanged(flags.id);
    return { id: result.id, api_key: result.api_key };
  },
});
