import { createBot } from '../../operator/operatorBots.js';
import { defineCommand } from '../command.js';

export const botCreate = defineCommand({
  title: 'Bot created.',
  flags: {
    project: { description: 'project UUID', required: true, placeholder: 'UUID' },
    name: { description: 'bot name (default: Bot)', placeholder: 'N' },
  },
  async run({ db }, flags) {
    const bot = await createBot(db, flags.project, flags.name);
    return { id: bot.id, project: bot.project, name: bot.name };
  },
});
