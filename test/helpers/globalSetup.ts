import { ensureTemplate } from './templateDatabase.js';

export default async function setup(): Promise<void> {
  process.env.LK_TEST_TEMPLATE = await ensureTemplate();
}
