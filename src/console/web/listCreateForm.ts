import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, call, messageOf, type FieldErrors } from './consoleApi.js';
import type { ListSchema } from './consoleTypes.js';
import { Banner, ErrorText, errorsAt } from './consoleWidgets.js';
import { emptyField, FieldEditor, fieldParams, type FieldDraft } from './fieldEditor.js';
import { botsOf, projectsOf } from './knownLists.js';

const MAX_FIELDS = 30;

/** createListSchema: a name, where the list goes (a bot or a project) and its typed fields. */
export function ListCreateForm({
  lists,
  onCreated,
}: {
  lists: ListSchema[];
  onCreated: (list: ListSchema) => void;
}) {
  const [name, setName] = useState('');
  const [botId, setBotId] = useState('');
  const [project, setProject] = useState('');
  const [fields, setFields] = useState<FieldDraft[]>([emptyField()]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setError('');
    try {
      const params: Record<string, unknown> = { name, fields: fields.map(fieldParams) };
      if (botId.trim() !== '') params.bot_id = botId.trim();
      if (project.trim() !== '') params.project_uuid = project.trim();
      const answer = await call<{ data: ListSchema }>('createListSchema', params);
      onCreated(answer.data);
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) {
        setErrors(err.errors);
        setError('The list was not created: see the messages at the fields.');
      } else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const input = (
    key: string,
    label: string,
    value: string,
    set: (v: string) => void,
    list?: string,
  ) => {
    const messages = errorsAt(errors, key);
    return html`<div class="control">
      <label for=${`new-list-${key}`}>${label}</label>
      <input
        id=${`new-list-${key}`}
        value=${value}
        list=${list}
        aria-invalid=${messages.length > 0 ? 'true' : undefined}
        aria-describedby=${messages.length > 0 ? `new-list-${key}-error` : undefined}
        onInput=${(e: Event) => set((e.target as HTMLInputElement).value)}
      />
      <${ErrorText} id=${`new-list-${key}-error`} messages=${messages} />
    </div>`;
  };

  return html`<form class="panel" onSubmit=${submit} aria-label="New list">
    <h2>New list</h2>
    <${Banner} message=${error} />
    ${input('name', 'List name', name, setName)}
    <p class="hint">Give a bot ID, or a project UUID for a list outside any bot.</p>
    <div class="row">
      ${input('bot_id', 'Bot ID', botId, setBotId, 'known-bots')}
      ${input('project_uuid', 'Project UUID', project, setProject, 'known-projects')}
    </div>
    <datalist id="known-bots">
      ${botsOf(lists).map((b) => html`<option value=${String(b)} />`)}
    </datalist>
    <datalist id="known-projects">
      ${projectsOf(lists).map((p) => html`<option value=${p} />`)}
    </datalist>
    ${fields.map(
      (draft, index) =>
        html`<${FieldEditor}
          legend=${`Field ${index + 1}`}
          draft=${draft}
          prefix=${`fields.${index}`}
          errors=${errors}
          onChange=${(next: FieldDraft) => setFields(fields.map((f, i) => (i === index ? next : f)))}
          onRemove=${fields.length > 1 ? () => setFields(fields.filter((_, i) => i !== index)) : undefined}
        />`,
    )}
    <${ErrorText} id="new-list-fields-error" messages=${errorsAt(errors, 'fields')} />
    <div class="actions">
      <button
        type="button"
        disabled=${fields.length >= MAX_FIELDS}
        onClick=${() => setFields([...fields, emptyField()])}
      >
        Add another field
      </button>
      <button type="submit" disabled=${busy}>Create list</button>
    </div>
  </form>`;
}
