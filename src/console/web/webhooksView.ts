import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, messageOf, type FieldErrors } from './consoleApi.js';
import { ChangeTypesPicker } from './changeTypesPicker.js';
import type { ListSchema, Webhook } from './consoleTypes.js';
import { Banner, ConfirmDialog, CopyButton, ErrorText, errorsAt } from './consoleWidgets.js';
import { loadLists } from './knownLists.js';
import { formatInstant } from './valueFormat.js';

/** The secret of a webhook just created: createWebhook's answer is the only time it is shown. */
function SecretOnce({ webhook, onDone }: { webhook: Webhook; onDone: () => void }) {
  return html`<section class="panel secret" aria-labelledby="secret-title">
    <h2 id="secret-title">Webhook created: copy its secret now</h2>
    <p>
      This is the only time the secret of <code>${webhook.url}</code> is shown; deliveries are
      signed with it.
    </p>
    <label for="webhook-secret">Signing secret</label>
    <input
      id="webhook-secret"
      readonly
      value=${webhook.secret ?? ''}
      onFocus=${(e: Event) => (e.target as HTMLInputElement).select()}
    />
    <${CopyButton} text=${webhook.secret ?? ''} label="Copy secret" />
    <button type="button" onClick=${onDone}>I have saved it</button>
  </section>`;
}

function CreateWebhookForm({
  lists,
  onCreated,
}: {
  lists: ListSchema[];
  onCreated: (webhook: Webhook) => void;
}) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [schemaId, setSchemaId] = useState('');
  const [botId, setBotId] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setError('');
    const params: Record<string, unknown> = { url };
    if (types.length > 0) params.types = types;
    if (schemaId) params.schema_id = schemaId;
    if (botId.trim()) params.bot_id = botId.trim();
    try {
      onCreated((await call<{ data: Webhook }>('createWebhook', params)).data);
      setUrl('');
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setErrors(err.errors);
      setError(messageOf(err));
    }
  };
  const described = (key: string) =>
    errorsAt(errors, key).length > 0 ? `webhook-${key}-error` : undefined;
  return html`<form class="panel" onSubmit=${submit} aria-label="New webhook">
    <h2>New webhook</h2>
    <${Banner} message=${error} />
    <div class="control">
      <label for="webhook-url">URL (http or https, public address)</label>
      <input
        id="webhook-url"
        type="url"
        required
        value=${url}
        aria-describedby=${described('url')}
        aria-invalid=${described('url') ? 'true' : undefined}
        onInput=${(e: Event) => setUrl((e.target as HTMLInputElement).value)}
      />
      <${ErrorText} id="webhook-url-error" messages=${errorsAt(errors, 'url')} />
    </div>
    <${ChangeTypesPicker} value=${types} onChange=${setTypes} />
    <div class="row">
      <div class="control">
        <label for="webhook-list">Only the list</label>
        <select
          id="webhook-list"
          value=${schemaId}
          onChange=${(e: Event) => setSchemaId((e.target as HTMLSelectElement).value)}
        >
          <option value="">Any list</option>
          ${lists.map((l) => html`<option value=${l.id}>${l.name}</option>`)}
        </select>
        <${ErrorText} id="webhook-schema_id-error" messages=${errorsAt(errors, 'schema_id')} />
      </div>
      <div class="control">
        <label for="webhook-bot">Only the bot (ID)</label>
        <input
          id="webhook-bot"
          value=${botId}
          aria-describedby=${described('bot_id')}
          onInput=${(e: Event) => setBotId((e.target as HTMLInputElement).value)}
        />
        <${ErrorText} id="webhook-bot_id-error" messages=${errorsAt(errors, 'bot_id')} />
      </div>
    </div>
    <button type="submit">Create webhook</button>
  </form>`;
}

/** The account's webhooks: how each is delivering, create one (secret shown once), delete one. */
export function WebhooksView() {
  const [webhooks, setWebhooks] = useState<Webhook[] | undefined>();
  const [lists, setLists] = useState<ListSchema[]>([]);
  const [created, setCreated] = useState<Webhook | undefined>();
  const [deleting, setDeleting] = useState<Webhook | undefined>();
  const [error, setError] = useState('');
  const load = () =>
    call<{ data: Webhook[] }>('getWebhooks')
      .then((answer) => setWebhooks(answer.data))
      .catch((err) => setError(messageOf(err)));
  useEffect(() => {
    void load();
    loadLists()
      .then((answer) => setLists(answer.lists))
      .catch(() => undefined);
  }, []);
  const remove = async () => {
    if (!deleting) return;
    try {
      await call('deleteWebhook', { webhook_id: deleting.id });
    } catch (err) {
      setError(messageOf(err));
    }
    setDeleting(undefined);
    await load();
  };
  const listName = (id: string | null) =>
    id ? (lists.find((l) => l.id === id)?.name ?? id) : 'any';

  return html`<section aria-labelledby="webhooks-title">
    <h1 id="webhooks-title">Webhooks</h1>
    <${Banner} message=${error} />
    ${created && html`<${SecretOnce} webhook=${created} onDone=${() => setCreated(undefined)} />`}
    <${CreateWebhookForm}
      lists=${lists}
      onCreated=${(w: Webhook) => {
        setCreated(w);
        void load();
      }}
    />
    ${webhooks?.length === 0 && html`<p>No webhooks yet.</p>`}
    ${
      webhooks &&
      webhooks.length > 0 &&
      html`<table class="grid webhooks">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Types</th>
            <th scope="col">List</th>
            <th scope="col">Bot</th>
            <th scope="col">State</th>
            <th scope="col">Last delivered</th>
            <th scope="col">Failing since</th>
            <th scope="col">Last error</th>
            <th scope="col">Disabled at</th>
            <th scope="col">Created</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${webhooks.map(
            (w) =>
              html`<tr>
                <td><code>${w.url}</code></td>
                <td>${w.types.length > 0 ? w.types.join(', ') : 'all'}</td>
                <td>${listName(w.schema_id)}</td>
                <td>${w.bot_id ?? 'any'}</td>
                <td><span class=${`status status-${w.status}`}>${w.status}</span></td>
                <td>${formatInstant(w.last_success_at)}</td>
                <td>${formatInstant(w.failing_since)}</td>
                <td>${w.last_error ?? ''}</td>
                <td>
                  ${w.disabled_at ? `${formatInstant(w.disabled_at)}${w.disabled_reason ? `: ${w.disabled_reason}` : ''}` : ''}
                </td>
                <td>${formatInstant(w.created_at)}</td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    aria-label=${`Delete webhook ${w.url}`}
                    onClick=${() => setDeleting(w)}
                  >
                    Delete
                  </button>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }
    ${
      deleting &&
      html`<${ConfirmDialog}
        title="Delete webhook"
        confirmLabel="Delete the webhook"
        onConfirm=${remove}
        onCancel=${() => setDeleting(undefined)}
      >
        <p>Stop delivering to <code>${deleting.url}</code> and delete the webhook?</p>
      <//>`
    }
  </section>`;
}
