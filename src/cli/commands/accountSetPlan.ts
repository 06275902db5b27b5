import { setPlan } from '../../operator/operatorAccounts.js';
import { defineCommand } from '../command.js';

export const accountSetPlan = defineCommand({
  title: 'Plan changed.',
  flags: {
    id: { description: 'account ID', required: true, kind: 'id', placeholder: 'ID' },
    plan: {
      description: 'the new plan',
      required: true,
      choices: ['pro', 'free'],
      placeholder: 'PLAN',
    },
  },
  async run({ db, accountChanged }, flags) {
    const result = await setPlan(db, flags.id, flags.plan);
    await accountChanged(flags.id);
    return { id: result.id, plan: result.plan };
  },
});
