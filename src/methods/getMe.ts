import { Account } from '../openapi/responses/accountResponses.js';
import { z } from 'zod';
import { defineMethod, ok } from './method.js';

/** The key's account (docs/decisions.md). */
export const getMe = defineMethod({
  name: 'getMe',
  tag: 'Account',
  summary: 'The account the API key belongs to',
  example: {},
  changesData: false,
  primaryOnly: 'answered from the key lookup, which stays on the primary',
  success: [{ status: 200, description: 'The account', body: z.object({ data: Account }) }],
  params: z.object({}),
  async handle(_params, { caller }) {
    return ok({
      data: {
        id: caller.accountId,
        email: caller.email,
        name: caller.name,
        plan: caller.plan,
        created_at: caller.createdAt.toISOString(),
      },
    });
  },
});
