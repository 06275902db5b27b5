import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, call, messageOf, type FieldErrors } from './consoleApi.js';
import type { ListItem, SchemaField } from './consoleTypes.js';
import { ErrorText, errorsAt } from './consoleWidgets.js';
import { ValueInput } from './filterBuilder.js';
import { editText, formatInstant, formatValue, webUrlOf } from './valueFormat.js';

/** A cell's value as text; a file or image links to its address when that is a web URL. */
function Cell({ value, field }: { value: unknown; field: SchemaField }) {
  const text = formatValue(value, field);
  const url = field.type === 'file' || field.type === 'image' ? webUrlOf(value) : undefined;
  if (url)
    return html`<td><a href=${url} rel="noopener noreferrer" target="_blank">${text}</a></td>`;
  return html`<td class=${`type-${field.type}`}>${text}</td>`;
}

/**
 * A record of the grid, shown or edited in place. `record` undefined is the row that adds
 * one (addListItem); otherwise saving sends the changed fields only (updateListItem,
 * which keeps a field the form leaves empty). A 422 puts each message under its cell.
 */
export function RecordRow(props: {
  schemaId: string;
  fields: SchemaField[];
  record?: ListItem;
  editing: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onEdit: () => void;
  onDone: (changed: boolean) => void;
  onDelete: () => void;
}) {
  const { fields, record } = props;
  const original = (f: SchemaField) => (record ? editText(record[f.slug], f.type) : '');
  const [drafts, setDrafts] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.slug, original(f)])),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [rowError, setRowError] = useState('');
  const rowKey = record?.id ?? 'new';

  const save = async () => {
    setErrors({});
    setRowError('');
    const data = Object.fromEntries(
      fields
        .filter((f) => drafts[f.slug] !== '' && drafts[f.slug] !== original(f))
        .map((f) => [f.slug, drafts[f.slug]]),
    );
    try {
      if (!record) await call('addListItem', { schema_id: props.schemaId, data });
      else if (Object.keys(data).length > 0)
        await call('updateListItem', { item_id: record.id, data });
      props.onDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) {
        setErrors(err.errors);
        const elsewhere = Object.entries(err.errors).filter(([key]) => !key.startsWith('data.'));
        if (elsewhere.length > 0) setRowError(elsewhere.flatMap(([, m]) => m).join(' '));
      } else setRowError(messageOf(err));
    }
  };
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Enter') void save();
    if (event.key === 'Escape') props.onDone(false);
  };

  const label = record ? `record ${record.id}` : 'the new record';
  if (!props.editing && record) {
    return html`<tr>
      <td>
        <input
          type="checkbox"
          aria-label=${`Select ${label}`}
          checked=${props.selected}
          onChange=${(e: Event) => props.onSelect((e.target as HTMLInputElement).checked)}
        />
      </td>
      ${fields.map((f) => html`<${Cell} value=${record[f.slug]} field=${f} />`)}
      <td class="type-datetime">${formatInstant(record.created_at)}</td>
      <td class="type-datetime">${formatInstant(record.updated_at)}</td>
      <td class="row-actions">
        <button type="button" onClick=${props.onEdit} aria-label=${`Edit ${label}`}>Edit</button>
        <button
          type="button"
          class="danger"
          onClick=${props.onDelete}
          aria-label=${`Delete ${label}`}
        >
          Delete
        </button>
      </td>
    </tr>`;
  }
  return html`<tr class="editing" aria-label=${record ? `Editing ${label}` : 'New record'}>
    <td></td>
    ${fields.map((f) => {
      const messages = errorsAt(errors, `data.${f.slug}`);
      const id = `cell-${rowKey}-${f.slug}`;
      return html`<td class=${messages.length > 0 ? 'invalid' : undefined}>
        <${ValueInput}
          id=${id}
          label=${`${f.name} of ${label}`}
          type=${f.type}
          value=${drafts[f.slug] ?? ''}
          invalid=${messages.length > 0}
          describedBy=${messages.length > 0 ? `${id}-error` : undefined}
          onInput=${(value: string) => setDrafts({ ...drafts, [f.slug]: value })}
          onKeyDown=${keys}
        />
        <${ErrorText} id=${`${id}-error`} messages=${messages} />
      </td>`;
    })}
    <td colspan="2">${rowError && html`<p class="field-error" role="alert">${rowError}</p>`}</td>
    <td class="row-actions">
      <button type="button" onClick=${save}>${record ? 'Save' : 'Add'}</button>
      <button type="button" onClick=${() => props.onDone(false)}>Cancel</button>
    </td>
  </tr>`;
}
