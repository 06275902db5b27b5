import { createProject } from '../../operator/operatorProjects.js';
import { defineCommand } from '../command.js';

export const projectCreate = defineCommand({
  title: 'Project created.',
  flags: {
    owner: {
      description: 'owner account ID',
      required: true,
      kind: 'id',
      placeholder: 'ACCOUNT_ID',
    },
    name: { description: 'project name (default: Project)', placeholder: 'N' },
  },
  async run({ db }, flags) {
    const project = await createProject(db, flags.owner, flags.name);
    return { uuid: project.uuid, owner: project.owner, name: project.name };
  },
});
