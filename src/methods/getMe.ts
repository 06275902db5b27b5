import { z } from 'zod';
import { defineMethod, ok } from './method.js';

/** Contract not shown in the spec; ours (contract/decisions.md): the key's account. */
export const getMe = defineMethod({
  name: 'getMe',
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
