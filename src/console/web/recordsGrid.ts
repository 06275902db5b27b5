import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, messageOf } from './consoleApi.js';
import type { ListItem, ListSchema, Page, SchemaField } from './consoleTypes.js';
import { Banner, ConfirmDialog, CopyButton } from './consoleWidgets.js';
import { curlCommand, INITIAL_GRID_QUERY, listItemsParams, type GridQuery } from './curlCommand.js';
import { isSortable } from './fieldOperators.js';
import { FilterBuilder } from './filterBuilder.js';
import { PageNav } from './pageNav.js';
import { RecordRow } from './recordRow.js';

const PAGE_SIZES = [25, 50, 100, 500];
const count = new Intl.NumberFormat('en');

/** `Page 2 of 20,000 · records 51–100 of 1,000,000 in all` */
function pageStatus(meta: Page<ListItem>['meta']): string {
  const range = meta.from
    ? `records ${count.format(meta.from)}–${count.format(meta.to ?? meta.from)} of `
    : '';
  return `Page ${count.format(meta.current_page)} of ${count.format(meta.last_page)} · ${range}${count.format(meta.total)} in all`;
}

/** What a confirmation is about to delete: one record, or the selected ones. */
type Deletion = { ids: string[] };

function SortHeader(props: {
  slug: string;
  label: string;
  query: GridQuery;
  sortable: boolean;
  onSort: (slug: string) => void;
}) {
  const sorted = props.query.sort?.slug === props.slug ? props.query.sort.direction : undefined;
  const ariaSort = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
  if (!props.sortable) return html`<th scope="col">${props.label}</th>`;
  return html`<th scope="col" aria-sort=${ariaSort}>
    <button type="button" class="sort" onClick=${() => props.onSort(props.slug)}>
      ${props.label}<span aria-hidden="true"
        >${sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span
      >
    </button>
  </th>`;
}

/** A list's records: a page at a time with the exact total, sorted, filtered, edited in place. */
export function RecordsGrid({ schema, fields }: { schema: ListSchema; fields: SchemaField[] }) {
  const [query, setQuery] = useState<GridQuery>(INITIAL_GRID_QUERY);
  const [page, setPage] = useState<Page<ListItem> | undefined>();
  const [error, setError] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | undefined>();
  const [deletion, setDeletion] = useState<Deletion | undefined>();
  const [showFilters, setShowFilters] = useState(false);
  const firstShown = useRef(false);

  const load = async (q = query) => {
    try {
      const answer = await call<Page<ListItem>>('getListItems', listItemsParams(schema.id, q));
      setPage(answer);
      setError('');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(query), [query]);
  useEffect(() => {
    // The first page on screen: what the console's speed is measured by (bench/consoleFirstGrid.ts).
    if (page && !firstShown.current) {
      firstShown.current = true;
      // after the frame that paints it
      requestAnimationFrame(() => setTimeout(() => performance.mark('console:first-grid'), 0));
    }
  }, [page]);

  const update = (change: Partial<GridQuery>) => {
    setSelected(new Set());
    setEditing(undefined);
    setQuery({ ...query, ...change });
  };
  const sortBy = (slug: string) => {
    const direction = query.sort?.slug === slug && query.sort.direction === 'asc' ? 'desc' : 'asc';
    update({ sort: { slug, direction }, page: 1 });
  };
  const remove = async () => {
    if (!deletion) return;
    try {
      if (deletion.ids.length === 1) await call('deleteListItem', { item_id: deletion.ids[0] });
      else await call('deleteListItems', { schema_id: schema.id, item_ids: deletion.ids });
      setSelected(new Set());
    } catch (err) {
      setError(messageOf(err));
    }
    setDeletion(undefined);
    await load();
  };
  const done = (changed: boolean) => {
    setEditing(undefined);
    if (changed) void load();
  };

  const meta = page?.meta;
  const rows = page?.data ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const curl = curlCommand(location.origin, 'getListItems', listItemsParams(schema.id, query));
  const go = (n: number) => update({ page: n });

  return html`<section class="grid-section" aria-label="Records">
    <div class="toolbar">
      <button type="button" onClick=${() => setEditing('new')} disabled=${editing === 'new'}>
        Add record
      </button>
      <button
        type="button"
        aria-expanded=${showFilters}
        onClick=${() => setShowFilters(!showFilters)}
      >
        Filters${query.filters.length > 0 ? ` (${query.filters.length})` : ''}
      </button>
      <button
        type="button"
        class="danger"
        disabled=${selected.size === 0}
        onClick=${() => setDeletion({ ids: [...selected] })}
      >
        Delete selected (${selected.size})
      </button>
    </div>
    ${
      showFilters &&
      html`<${FilterBuilder}
        fields=${fields}
        applied=${query.filters}
        onApply=${(filters: GridQuery['filters']) => update({ filters, page: 1 })}
      />`
    }
    <details class="curl">
      <summary>This page as a getListItems call</summary>
      <pre><code>${curl}</code></pre>
      <${CopyButton} text=${curl} label="Copy curl" />
    </details>
    <${Banner} message=${error} />
    <div class="grid-wrap">
      <table class="grid" aria-busy=${page ? 'false' : 'true'} data-total=${meta?.total}>
        <thead>
          <tr>
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select every record on this page"
                checked=${allSelected}
                onChange=${(e: Event) => setSelected((e.target as HTMLInputElement).checked ? new Set(rows.map((r) => r.id)) : new Set())}
              />
            </th>
            ${fields.map(
              (f) =>
                html`<${SortHeader}
                  slug=${f.slug}
                  label=${`${f.name}${f.type === 'money' && f.currency ? ` (${f.currency})` : ''}${f.is_encryptable ? ' 🔒' : ''}`}
                  query=${query}
                  sortable=${isSortable(f)}
                  onSort=${sortBy}
                />`,
            )}
            <${SortHeader}
              slug="created_at"
              label="Created"
              query=${query}
              sortable=${true}
              onSort=${sortBy}
            />
            <${SortHeader}
              slug="updated_at"
              label="Updated"
              query=${query}
              sortable=${true}
              onSort=${sortBy}
            />
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${
            editing === 'new' &&
            html`<${RecordRow}
              key="new"
              schemaId=${schema.id}
              fields=${fields}
              editing=${true}
              selected=${false}
              onSelect=${() => undefined}
              onEdit=${() => undefined}
              onDone=${done}
              onDelete=${() => undefined}
            />`
          }
          ${rows.map(
            (record) =>
              html`<${RecordRow}
                key=${record.id + record.updated_at}
                schemaId=${schema.id}
                fields=${fields}
                record=${record}
                editing=${editing === record.id}
                selected=${selected.has(record.id)}
                onSelect=${(on: boolean) => {
                  const next = new Set(selected);
                  if (on) next.add(record.id);
                  else next.delete(record.id);
                  setSelected(next);
                }}
                onEdit=${() => setEditing(record.id)}
                onDone=${done}
                onDelete=${() => setDeletion({ ids: [record.id] })}
              />`,
          )}
        </tbody>
      </table>
    </div>
    ${page && rows.length === 0 && html`<p>No records${query.filters.length > 0 ? ' match the filters' : ''}.</p>`}
    ${
      meta &&
      html`<${PageNav} meta=${meta} status=${pageStatus(meta)} go=${go}>
        <label for="page-size">Per page</label>
        <select
          id="page-size"
          value=${String(query.limit)}
          onChange=${(e: Event) => update({ limit: Number((e.target as HTMLSelectElement).value), page: 1 })}
        >
          ${PAGE_SIZES.map((n) => html`<option value=${String(n)}>${n}</option>`)}
        </select>
      <//>`
    }
    ${
      deletion &&
      html`<${ConfirmDialog}
        title="Delete records"
        confirmLabel=${deletion.ids.length === 1 ? 'Delete the record' : `Delete ${deletion.ids.length} records`}
        onConfirm=${remove}
        onCancel=${() => setDeletion(undefined)}
      >
        <p>
          ${deletion.ids.length === 1 ? `Delete record ${deletion.ids[0]}` : `Delete the ${deletion.ids.length} selected records`}
          of
          <strong>${schema.name}</strong>? This cannot be undone.
        </p>
      <//>`
    }
  </section>`;
}
