import { uuidv7 } from 'uuidv7';
import { z } from 'zod';
import { CHANGE_TYPES } from '../changes/changeTypes.js';
import { requireOwnList } from '../lists/listAccess.js';
import { requireOwnBot } from '../bots/botLookup.js';
import { CreatedWebhook } from '../openapi/responses/webhookResponses.js';
import { domainErrors } from '../shared/domainErrors.js';
import {
  DOCUMENTED_AS,
  idParam,
  intParam,
  oneOrMany,
  optionalParam,
} from '../shared/paramTypes.js';
import { presentWebhook } from '../webhooks/webhookPresenter.js';
import { insertWebhook, MAX_WEBHOOKS_PER_ACCOUNT } from '../webhooks/webhookRepository.js';
import { newSecret } from '../webhooks/signature.js';
import { MAX_URL_LENGTH, urlProblem, WEBHOOK_URL_PATTERN } from '../webhooks/webhookUrl.js';
import { created, defineMethod } from './method.js';

/** createWebhook: push the account's changes to a URL (docs/webhooks.md). */
export const createWebhook = defineMethod({
  name: 'createWebhook',
  tag: 'Webhooks',
  summary: 'Push your changes to a URL: signed, ordered, retried',
  description: [
    'Every change committed after this call (of the `types`, the list `schema_id` or the bot `bot_id`, when given) is POSTed to `url` in batches of up to 100, in feed order, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` of this answer — shown only here. A 2xx within 10 s moves on; anything else retries the same batch with growing waits for up to 24 hours, then disables the webhook (getWebhooks says why).',
    '',
    `\`url\` must be http(s) and resolve to public addresses only. At most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks per account (\`403\` beyond).`,
  ].join('\n'),
  example: { url: 'https://example.com/hooks/listkeeper', types: ['list_item.created'] },
  changesData: true,
  success: [
    {
      status: 201,
      description: 'The webhook, with its secret',
      body: z.object({ data: CreatedWebhook }),
    },
  ],
  params: z.object({
    url: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'is required')
      .max(MAX_URL_LENGTH, `may not be greater than ${MAX_URL_LENGTH} characters`)
      .meta({ [DOCUMENTED_AS]: { format: 'uri', pattern: WEBHOOK_URL_PATTERN } })
      .describe(
        'Where to POST: an absolute http or https URL without user name or password, whose host resolves to public addresses only (a host name in ASCII: `xn--` for others)',
      ),
    types: optionalParam(
      oneOrMany(z.array(z.enum(CHANGE_TYPES, { error: 'is not a change type' })).min(1)),
    ).describe('Only these change types (default: all)'),
    schema_id: optionalParam(idParam()).describe('Only changes of this list and its items'),
    bot_id: optionalParam(intParam()).describe(
      'Only contacts of this bot and changes of its lists',
    ),
  }),
  async handle(params, { caller, deps }) {
    const problem = await urlProblem(params.url, deps.config.webhooks.allowPrivate);
    if (problem) throw domainErrors.invalid('url', `The url ${problem}.`);
    if (params.schema_id !== undefined) await requireOwnList(deps.lists, caller, params.schema_id);
    if (params.bot_id !== undefined) await requireOwnBot(deps.db, caller.accountId, params.bot_id);
    const secret = newSecret();
    const row = await insertWebhook(deps.db, {
      id: uuidv7(),
      accountId: caller.accountId,
      url: params.url,
      types: params.types ? [...new Set(params.types)] : null,
      schemaId: params.schema_id ?? null,
      botId: params.bot_id ?? null,
      secret: deps.cipher.encrypt(secret),
      createdAt: deps.clock(),
    });
    if (!row) {
      throw domainErrors.tooManyWebhooks(MAX_WEBHOOKS_PER_ACCOUNT);
    }
    return created({ data: presentWebhook(row, secret) });
  },
});
