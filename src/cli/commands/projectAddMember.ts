import { addProjectMember } from '../../operator/operatorProjects.js';
import { defineCommand } from '../command.js';

export const projectAddMember = defineCommand({
  title: 'Team member added.',
  flags: {
    project: { description: 'project UUID', required: true, placeholder: 'UUID' },
    account: {
      description: 'member account ID',
      required: true,
      kind: 'id',
      placeholder: 'ACCOUNT_ID',
    },
  },
  async run({ db }, flags) {
    const member = await addProjectMember(db, flags.project, flags.account);
    return { project: member.project, account: member.account };
  },
});
