import { createReadStream } from 'node:fs';
import { createFieldCipher } from '../../lists/encryption/cipher.js';
import { createListsContext } from '../../lists/context.js';
import { findAnyLiveList } from '../../lists/schemas/listSchemaRepository.js';
import { ImportKeyError, importItems } from '../../lists/transfer/importItems.js';
import { csvRecords, ndjsonRecords } from '../../lists/transfer/recordSources.js';
import { OperatorError } from '../../operator/operatorError.js';
import { defineCommand } from '../command.js';
import { fileSize, readLines } from '../files.js';
import { ProgressBar } from '../progressBar.js';

export const listsImport = defineCommand({
  title: 'Records imported.',
  flags: {
    list: { description: 'list ID', required: true, placeholder: 'ID' },
    file: { description: 'the file to import', required: true, kind: 'path', placeholder: 'PATH' },
    format: {
      description: 'ndjson (default) or csv',
      choices: ['ndjson', 'csv'],
      placeholder: 'FORMAT',
    },
    key: {
      description: 'a string field: a record whose value is already in the list updates it',
      placeholder: 'SLUG',
    },
  },
  async run({ db, config, stderr }, flags) {
    const list = await findAnyLiveList(db, flags.list);
    if (!list) throw new OperatorError(`list ${flags.list} does not exist or was deleted`);
    if (!config.encryptionKey) throw new Error('ENCRYPTION_KEY is not set');
    const lists = createListsContext(
      db,
      createFieldCipher(config.encryptionKey, config.encryptionOldKeys),
      () => new Date(),
    );
    const size = await fileSize(flags.file);
    const progress = new ProgressBar(stderr, size);
    const read = { bytes: 0 };
    const records =
      flags.format === 'csv'
        ? csvRecords(countedStream(flags.file, read), list.fields)
        : ndjsonRecords(readLines(flags.file, read));
    try {
      const counts = await importItems(lists, list, records, { key: flags.key }, (event) => {
        if (event.type === 'failure') progress.note(`line ${event.line}: ${event.reason}`);
        else if (event.type === 'note') progress.note(event.message);
        else
          progress.update(
            read.bytes,
            `${event.lines} lines, ${event.imported} imported, ${event.updated} updated, ${event.unchanged} unchanged, ${event.failed} failed`,
          );
      });
      progress.done();
      return { ...counts };
    } catch (err) {
      progress.done();
      if (err instanceof ImportKeyError) throw new OperatorError(err.message);
      throw err;
    }
  },
});

function countedStream(path: string, read: { bytes: number }) {
  const stream = createReadStream(path);
  stream.on('data', (chunk) => (read.bytes += chunk.length));
  return stream;
}
