import { createAccount } from '../../operator/operatorAccounts.js';
import { defineCommand } from '../command.js';

export const accountCreate = defineCommand({
  title: 'Account created. Keep the API key: it is stored only as a hash.',
  flags: {
    email: { description: 'login email, unique', required: true, kind: 'email', placeholder: 'E' },
    name: {
      description: 'display name (default: the part of the email before @)',
      placeholder: 'N',
    },
    plan: { description: 'plan, default pro', choices: ['pro', 'free'], placeholder: 'PLAN' },
    password: { description: 'password, stored as an argon2id hash', placeholder: 'P' },
  },
  async run({ db }, flags) {
    const account = await createAccount(db, {
      email: flags.email,
      name: flags.name,
      plan: flags.plan ?? 'pro',
      password: flags.password,
    });
    return {
      id: account.id,
      email: account.email,
      name: account.name,
      plan: account.plan,
      api_key: account.api_key,
    };
  },
});
