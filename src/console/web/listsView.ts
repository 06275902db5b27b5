import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { call, messageOf } from './consoleApi.js';
import type { ListSchema } from './consoleTypes.js';
import { Banner, ConfirmDialog, Loading } from './consoleWidgets.js';
import { forgetLists, loadLists } from './knownLists.js';
import { ListCreateForm } from './listCreateForm.js';
import { formatInstant } from './valueFormat.js';

/** project → bot ("" for lists created in the project itself) → lists */
function grouped(lists: ListSchema[]): Map<string, Map<string, ListSchema[]>> {
  const groups = new Map<string, Map<string, ListSchema[]>>();
  for (const list of lists) {
    const bots = groups.get(list.project) ?? new Map<string, ListSchema[]>();
    groups.set(list.project, bots);
    const bot = list.bot_id == null ? '' : String(list.bot_id);
    bots.set(bot, [...(bots.get(bot) ?? []), list]);
  }
  return groups;
}

/** The account's lists per project and bot; create and delete lists. */
export function ListsView() {
  const [lists, setLists] = useState<ListSchema[] | undefined>();
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState('');
  const [deleting, setDeleting] = useState<ListSchema | undefined>();
  const [creating, setCreating] = useState(false);

  const load = async (more = false) => {
    try {
      const answer = await loadLists(more);
      setLists(answer.lists);
      setHasMore(answer.hasMore);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), []);

  const remove = async () => {
    if (!deleting) return;
    try {
      await call('deleteListSchema', { schema_id: deleting.id });
      forgetLists();
      setDeleting(undefined);
      await load();
    } catch (err) {
      setDeleting(undefined);
      setError(messageOf(err));
    }
  };
  const created = async (list: ListSchema) => {
    forgetLists();
    setCreating(false);
    location.hash = `#/lists/${encodeURIComponent(list.id)}`;
  };

  return html`<section aria-labelledby="lists-title">
    <div class="title-row">
      <h1 id="lists-title">Lists</h1>
      <button type="button" onClick=${() => setCreating(!creating)} aria-expanded=${creating}>
        ${creating ? 'Close the new list form' : 'New list'}
      </button>
    </div>
    <${Banner} message=${error} />
    ${creating && html`<${ListCreateForm} lists=${lists ?? []} onCreated=${created} />`}
    ${lists === undefined && !error && html`<${Loading} what="lists" />`}
    ${lists?.length === 0 && html`<p>No lists yet.</p>`}
    ${[...grouped(lists ?? [])].map(
      ([project, bots]) =>
        html`<section class="project" aria-label=${`Project ${project}`}>
          <h2>Project <code>${project}</code></h2>
          ${[...bots].map(
            ([bot, botLists]) =>
              html`<h3>${bot ? `Bot ${bot}` : 'In the project (no bot)'}</h3>
                <table class="lists">
                  <thead>
                    <tr>
                      <th scope="col">List</th>
                      <th scope="col">Fields</th>
                      <th scope="col">Created</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${botLists.map(
                      (list) =>
                        html`<tr>
                          <td>
                            <a href=${`#/lists/${encodeURIComponent(list.id)}`}>${list.name}</a>
                          </td>
                          <td>${Object.keys(list.fields).length}</td>
                          <td>${formatInstant(list.created_at)}</td>
                          <td>
                            <button
                              type="button"
                              class="danger"
                              aria-label=${`Delete list ${list.name}`}
                              onClick=${() => setDeleting(list)}
                            >
                              Delete
                            </button>
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`,
          )}
        </section>`,
    )}
    ${hasMore && html`<button type="button" onClick=${() => load(true)}>Load more lists</button>`}
    ${
      deleting &&
      html`<${ConfirmDialog}
        title="Delete list"
        confirmLabel=${`Delete “${deleting.name}”`}
        onConfirm=${remove}
        onCancel=${() => setDeleting(undefined)}
      >
        <p>
          Delete the list <strong>${deleting.name}</strong> and all its records? This cannot be
          undone.
        </p>
      <//>`
    }
  </section>`;
}
