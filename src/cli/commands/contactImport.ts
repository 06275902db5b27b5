import { ImportBotNotFound, importContacts } from '../../contacts/import.js';
import { OperatorError } from '../../operator/operatorError.js';
import { defineCommand } from '../command.js';
import { fileSize, readLines } from '../files.js';
import { ProgressBar } from '../progressBar.js';

export const contactImport = defineCommand({
  title: 'Contacts imported.',
  flags: {
    bot: { description: 'bot ID', required: true, kind: 'id', placeholder: 'ID' },
    file: { description: 'NDJSON file, one contact per line', required: true, placeholder: 'PATH' },
  },
  async run({ db, stderr }, flags) {
    const size = await fileSize(flags.file);
    const progress = new ProgressBar(stderr, size);
    const file = { bytes: 0 };
    try {
      const counts = await importContacts(db, flags.bot, readLines(flags.file, file), (event) => {
        if (event.type === 'failure') progress.note(`line ${event.line}: ${event.reason}`);
        else
          progress.update(
            file.bytes,
            `${event.lines} lines, ${event.imported} imported, ${event.updated} updated, ${event.failed} failed`,
          );
      });
      progress.done();
      return { imported: counts.imported, updated: counts.updated, failed: counts.failed };
    } catch (err) {
      progress.done();
      if (err instanceof ImportBotNotFound) throw new OperatorError(err.message);
      throw err;
    }
  },
});
