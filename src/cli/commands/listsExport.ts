import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { createFieldCipher } from '../../lists/encryption/cipher.js';
import { findAnyLiveList } from '../../lists/schemas/listSchemaRepository.js';
import { exportItems, type ExportedItem } from '../../lists/transfer/exportItems.js';
import { OperatorError } from '../../operator/operatorError.js';
import { ValidationError } from '../../shared/domainErrors.js';
import { JsonText, stringifyJson, type OrderedObject } from '../../shared/orderedJson.js';
import { defineCommand } from '../command.js';
import { ProgressBar } from '../progressBar.js';

export const listsExport = defineCommand({
  title: 'Records exported.',
  flags: {
    list: { description: 'list ID', required: true, placeholder: 'ID' },
    format: {
      description: 'ndjson (default) or csv',
      choices: ['ndjson', 'csv'],
      placeholder: 'FORMAT',
    },
    filters: { description: "getListItems' filters, as a JSON object", placeholder: 'JSON' },
    'order-by': {
      description: 'slug,asc|desc (default: insertion order)',
      placeholder: 'SLUG,DIR',
    },
    file: { description: 'write here instead of stdout', kind: 'path', placeholder: 'PATH' },
  },
  usesStdout: (flags) => flags.file === undefined,
  async run({ db, config, stderr, stdout }, flags) {
    const list = await findAnyLiveList(db, flags.list);
    if (!list) throw new OperatorError(`list ${flags.list} does not exist or was deleted`);
    if (!config.encryptionKey) throw new Error('ENCRYPTION_KEY is not set');
    const cipher = createFieldCipher(config.encryptionKey, config.encryptionOldKeys);
    let filters: unknown;
    if (flags.filters !== undefined) {
      try {
        filters = JSON.parse(flags.filters);
      } catch {
        throw new OperatorError('--filters is not valid JSON');
      }
    }
    const out = flags.file ? createWriteStream(flags.file) : stdout;
    const csv = flags.format === 'csv';
    const columns = ['id', ...list.fields.map((f) => f.slug), 'created_at', 'updated_at'];
    const progress = new ProgressBar(stderr, list.itemCount);
    const put = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    if (csv) await put(stringify([columns]));
    let count = 0;
    try {
      count = await exportItems(
        { db, cipher },
        list,
        { filters, orderBy: flags['order-by'], asJson: !csv },
        async (item) => {
          await put(exportLine(item, csv ? columns : undefined));
          if (++count % 10_000 === 0) progress.update(count, `${count} records`);
        },
      );
    } catch (err) {
      if (err instanceof ValidationError) throw new OperatorError(err.message);
      throw err;
    } finally {
      progress.done();
    }
    if (flags.file) {
      out.end();
      await once(out, 'finish');
    } else {
      // a pipe takes writes asynchronously: the process must not end before they are out
      await new Promise<void>((resolve, reject) =>
        out.write('', (err) => (err ? reject(err) : resolve())),
      );
    }
    return { exported: count, format: csv ? 'csv' : 'ndjson' };
  },
});

/**
 * One record's line: with `csvColumns` a CSV row, else an NDJSON line — Postgres's own JSON
 * text as it wrote it (only ever asked for NDJSON), or the record written here.
 */
function exportLine(item: ExportedItem, csvColumns: readonly string[] | undefined): string {
  if (item instanceof JsonText) return `${item.text}\n`;
  return csvColumns ? csvRow(csvColumns, item) : `${stringifyJson(item)}\n`;
}

/** One record as a CSV row: empty for no value, JSON for a file or image value. */
function csvRow(columns: readonly string[], item: OrderedObject): string {
  const values = new Map(item.entries);
  return stringify([
    columns.map((c) => {
      const v = values.get(c);
      if (v === null || v === undefined) return '';
      if (typeof v === 'object') return JSON.stringify(v);
      return String(v);
    }),
  ]);
}
