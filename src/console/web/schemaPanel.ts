import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, call, messageOf, type FieldErrors } from './consoleApi.js';
import type { ListSchema, SchemaField } from './consoleTypes.js';
import { Banner, ConfirmDialog } from './consoleWidgets.js';
import { emptyField, FieldEditor, fieldParams, type FieldDraft } from './fieldEditor.js';

/** A list's fields in order: add one at the end (addListSchemaField), delete one (deleteListSchemaField). */
export function SchemaPanel(props: {
  schema: ListSchema;
  fields: SchemaField[];
  onChanged: () => void;
}) {
  const [draft, setDraft] = useState<FieldDraft>(emptyField());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [deleting, setDeleting] = useState<SchemaField | undefined>();

  const add = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setError('');
    try {
      await call('addListSchemaField', { schema_id: props.schema.id, field: fieldParams(draft) });
      setDraft(emptyField());
      props.onChanged();
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setErrors(err.errors);
      else setError(messageOf(err));
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await call('deleteListSchemaField', { schema_id: props.schema.id, slug: deleting.slug });
      props.onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
    setDeleting(undefined);
  };

  return html`<section class="panel" aria-labelledby="fields-title">
    <h2 id="fields-title">Fields</h2>
    <${Banner} message=${error} />
    <table>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Slug</th>
          <th scope="col">Type</th>
          <th scope="col">Flags</th>
          <th scope="col"><span class="visually-hidden">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${props.fields.map(
          (f) =>
            html`<tr>
              <td>${f.name}</td>
              <td><code>${f.slug}</code></td>
              <td>${f.type}${f.currency ? ` (${f.currency})` : ''}</td>
              <td>
                ${[f.is_required && 'required', f.is_hidden && 'hidden', f.is_encryptable && 'encrypted'].filter(Boolean).join(', ')}
              </td>
              <td>
                <button
                  type="button"
                  class="danger"
                  aria-label=${`Delete field ${f.name}`}
                  onClick=${() => setDeleting(f)}
                >
                  Delete
                </button>
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    <form onSubmit=${add} aria-label="Add a field">
      <${FieldEditor}
        legend="New field"
        draft=${draft}
        prefix="field"
        errors=${errors}
        onChange=${setDraft}
      />
      <button type="submit">Add field</button>
    </form>
    ${
      deleting &&
      html`<${ConfirmDialog}
        title="Delete field"
        confirmLabel=${`Delete “${deleting.name}”`}
        onConfirm=${remove}
        onCancel=${() => setDeleting(undefined)}
      >
        <p>
          Delete the field <strong>${deleting.name}</strong> (<code>${deleting.slug}</code>) and
          erase its value in every record of ${props.schema.name}?
        </p>
      <//>`
    }
  </section>`;
}
