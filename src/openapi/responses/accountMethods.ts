import { z } from 'zod';
import type { MethodDoc } from '../methodDoc.js';
import { Account } from './accounts.js';

export const accountDocs: Record<string, MethodDoc> = {
  getMe: {
    tag: 'Account',
    summary: 'The account the API key belongs to',
    changesData: false,
    success: [{ status: 200, description: 'The account', body: z.object({ data: Account }) }],
  },
};
