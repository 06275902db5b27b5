import { z } from 'zod';
import type { Database } from '../../infra/db/client.js';
import type { ValidationErrors } from '../../shared/domainErrors.js';
import {
  BLANK_IS_UNSENT,
  IGNORED_WHEN,
  intParam,
  isBlank,
  SCHEMA_RULES,
  sentJsonSchema,
} from '../../shared/paramTypes.js';
import { ALWAYS } from './fieldDefinition.js';
import { findBot, findOwnBot } from '../../bots/botLookup.js';
import { findProject } from './listSchemaRepository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const given = (v: unknown) => v !== undefined && !isBlank(v);

/**
 * Where createListSchema puts the list: `bot_id` or `project_uuid`; when
 * both are sent `bot_id` wins and `project_uuid` is not looked at, not even validated.
 * Blank values (null, empty or whitespace text) count as not sent.
 */
export const createTargetParams = z
  .preprocess(
    (raw) => {
      const params = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<
        string,
        unknown
      >;
      return {
        bot_id: given(params.bot_id) ? params.bot_id : undefined,
        project_uuid:
          !given(params.bot_id) && given(params.project_uuid) ? params.project_uuid : undefined,
      };
    },
    z
      .object({
        bot_id: intParam()
          .optional()
          .meta({ [BLANK_IS_UNSENT]: true }),
        project_uuid: z
          .string({ error: 'must be a string' })
          .regex(UUID, 'must be a valid UUID')
          .optional()
          .meta({ [BLANK_IS_UNSENT]: true }),
      })
      .superRefine((target, ctx) => {
        if (target.bot_id !== undefined || target.project_uuid !== undefined) return;
        const message = 'is required when the other of bot_id and project_uuid is not present';
        ctx.addIssue({ code: 'custom', path: ['bot_id'], message });
        ctx.addIssue({ code: 'custom', path: ['project_uuid'], message });
      }, ALWAYS),
  )
  .meta({
    [SCHEMA_RULES]: { anyOf: [sentJsonSchema('bot_id'), sentJsonSchema('project_uuid')] },
    [IGNORED_WHEN]: { when: sentJsonSchema('bot_id'), properties: ['project_uuid'] },
  });

export interface CreateTarget {
  projectUuid: string;
  /** the list schema shape: null when the list was created in the project itself */
  botId: number | null;
  ownerId: number;
}

/** The target's project and owner; a bot or project that does not exist is a 422 (createListSchema). */
export async function findCreateTarget(
  db: Database,
  callerId: number,
  params: z.output<typeof createTargetParams>,
): Promise<
  { target: CreateTarget; errors?: undefined } | { errors: ValidationErrors; target?: undefined }
> {
  if (params.bot_id !== undefined) {
    // the caller's own bots first (one shard on Citus); a miss looks further, for the 403
    const bot =
      (await findOwnBot(db, callerId, params.bot_id)) ?? (await findBot(db, params.bot_id));
    if (!bot) return { errors: { bot_id: ['The selected bot id is invalid.'] } };
    return { target: { projectUuid: bot.projectUuid, botId: bot.id, ownerId: bot.ownerId } };
  }
  const project = params.project_uuid ? await findProject(db, params.project_uuid) : undefined;
  if (!project) return { errors: { project_uuid: ['The selected project uuid is invalid.'] } };
  return { target: { projectUuid: project.uuid, botId: null, ownerId: project.ownerId } };
}
