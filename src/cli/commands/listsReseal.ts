import { createFieldCipher } from '../../lists/encryption/cipher.js';
import { resealEncryptedValues } from '../../lists/encryption/reseal.js';
import { defineCommand } from '../command.js';

/**
 * Key rotation's last step (docs/records.md): seal every value still under a key from
 * ENCRYPTION_OLD_KEYS with the current ENCRYPTION_KEY, so the old key can be dropped.
 */
export const listsReseal = defineCommand({
  title: 'Encrypted values re-sealed.',
  flags: {},
  async run({ db, config }) {
    if (!config.encryptionKey) throw new Error('ENCRYPTION_KEY is not set');
    const cipher = createFieldCipher(config.encryptionKey, config.encryptionOldKeys);
    const report = await resealEncryptedValues(db, cipher);
    return { lists: report.lists, scanned: report.scanned, resealed: report.resealed };
  },
});
