import { z } from 'zod';

/** getMe's account (docs/decisions.md: `{data: {id, email, name, plan, created_at}}`). */
export const Account = z.object({
  id: z.int().describe('Account ID'),
  email: z.string(),
  name: z.string(),
  plan: z.enum(['pro', 'free']),
  created_at: z.iso.datetime().describe('ISO 8601, UTC'),
});
