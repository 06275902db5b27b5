import { eq } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { sqlState, UNIQUE_VIOLATION } from '../infra/db/databaseErrors.js';
import { accounts } from '../infra/db/schema/index.js';
import { generateApiKey, hashApiKey } from '../admission/apiKeys.js';
import { OperatorError } from './operatorError.js';

/**
 * An argon2id hash with OWASP's recommended parameters (19 MiB, t=2, p=1). The native module
 * is loaded here, on first use: commands that set no password never load it.
 */
async function hashPassword(password: string): Promise<string> {
  const { default: argon2 } = await import('argon2');
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
}

export interface NewAccount {
  email: string;
  name?: string;
  plan?: 'pro' | 'free';
  password?: string;
}

export interface AccountSummary {
  id: number;
  email: string;
  name: string;
  plan: 'pro' | 'free';
}

export async function createAccount(db: Database, input: NewAccount) {
  const apiKey = generateApiKey();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    const [row] = await db
      .insert(accounts)
      .values({
        email: input.email,
        name: input.name ?? input.email.split('@')[0] ?? input.email,
        plan: input.plan ?? 'pro',
        apiKeyHash: hashApiKey(apiKey),
        passwordHash,
      })
      .returning({
        id: accounts.id,
        email: accounts.email,
        name: accounts.name,
        plan: accounts.plan,
      });
    return { ...(row as AccountSummary), api_key: apiKey };
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION)
      throw new OperatorError(`an account with email ${input.email} already exists`);
    throw err;
  }
}

/** A new key; the old one stops working at once (callers publish the invalidation). */
export async function regenerateKey(db: Database, id: number) {
  const apiKey = generateApiKey();
  await updateAccount(db, id, { apiKeyHash: hashApiKey(apiKey) });
  return { id, api_key: apiKey };
}

/** The authentication rules: a password change also resets the key. */
export async function setPassword(db: Database, id: number, password: string) {
  const apiKey = generateApiKey();
  const passwordHash = await hashPassword(password);
  await updateAccount(db, id, { apiKeyHash: hashApiKey(apiKey), passwordHash });
  return { id, api_key: apiKey };
}

export async function setPlan(db: Database, id: number, plan: 'pro' | 'free') {
  await updateAccount(db, id, { plan });
  return { id, plan };
}

export async function setBlocked(db: Database, id: number, blocked: boolean) {
  await updateAccount(db, id, { blocked });
  return { id, blocked };
}

async function updateAccount(
  db: Database,
  id: number,
  values: Partial<typeof accounts.$inferInsert>,
) {
  const rows = await db
    .update(accounts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(accounts.id, id))
    .returning({ id: accounts.id });
  if (rows.length === 0) throw new OperatorError(`no account with id ${id}`);
}
