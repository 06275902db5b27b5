import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { call, messageOf } from './consoleApi.js';
import type { Contact, Page } from './consoleTypes.js';
import { Banner } from './consoleWidgets.js';
import { botsOf, loadLists } from './knownLists.js';
import { PageNav } from './pageNav.js';
import { formatInstant } from './valueFormat.js';

/** What getContacts and getNumberOfContacts take: a bot and a creation window (Unix seconds). */
interface ContactSearch {
  bot_id: string;
  date_from: string;
  date_to: string;
}

/** `YYYY-MM-DD` (a UTC day) → Unix seconds at its start, or at the start of the next day for `date_to`. */
function unixSeconds(day: string, endOfDay: boolean): number | undefined {
  if (!day) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  return Number.isNaN(start) ? undefined : endOfDay ? start + 86_399 : start;
}

function searchParams(search: ContactSearch): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  if (search.bot_id.trim()) params.bot_id = search.bot_id.trim();
  const from = unixSeconds(search.date_from, false);
  const to = unixSeconds(search.date_to, true);
  if (from !== undefined) params.date_from = from;
  if (to !== undefined) params.date_to = to;
  return params;
}

function ContactDetail({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const scalar = Object.entries(contact).filter(([key]) => key !== 'tags' && key !== 'variables');
  return html`<section class="panel detail" aria-labelledby="contact-title">
    <div class="title-row">
      <h2 id="contact-title">Contact #${contact.id}: ${contact.name}</h2>
      <button type="button" onClick=${onClose}>Close</button>
    </div>
    <dl>
      ${scalar.map(
        ([key, value]) =>
          html`<dt>${key}</dt>
            <dd>
              ${value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value)}
            </dd>`,
      )}
      <dt>tags</dt>
      <dd>${contact.tags.length > 0 ? contact.tags.join(', ') : '—'}</dd>
    </dl>
    <h3>Variables</h3>
    ${
      contact.variables.length === 0
        ? html`<p>None.</p>`
        : html`<table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Type</th>
              </tr>
            </thead>
            <tbody>
              ${contact.variables.map(
                (v) =>
                  html`<tr>
                    <td>${v.name}</td>
                    <td>${v.value ?? ''}</td>
                    <td>${v.type}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

/** Contacts of the account's bots: a page at a time with the count, narrowed as getContacts allows. */
export function ContactsView() {
  const [form, setForm] = useState<ContactSearch>({ bot_id: '', date_from: '', date_to: '' });
  const [search, setSearch] = useState<ContactSearch>(form);
  const [pageNumber, setPageNumber] = useState(1);
  const [page, setPage] = useState<Page<Contact> | undefined>();
  const [total, setTotal] = useState<number | undefined>();
  const [detail, setDetail] = useState<Contact | undefined>();
  const [bots, setBots] = useState<number[]>([]);
  const [error, setError] = useState('');

  useEffect(() => {
    loadLists()
      .then((answer) => setBots(botsOf(answer.lists)))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    const params = searchParams(search);
    Promise.all([
      call<Page<Contact>>('getContacts', { ...params, page: pageNumber, count: 50 }),
      call<{ count: number }>('getNumberOfContacts', params),
    ])
      .then(([contacts, number]) => {
        setPage(contacts);
        setTotal(number.count);
        setError('');
      })
      .catch((err) => setError(messageOf(err)));
  }, [search, pageNumber]);

  const submit = (event: Event) => {
    event.preventDefault();
    setPageNumber(1);
    setSearch({ ...form });
  };
  const input = (key: keyof ContactSearch, label: string, type: string) =>
    html`<div class="control">
      <label for=${`contacts-${key}`}>${label}</label>
      <input
        id=${`contacts-${key}`}
        type=${type}
        value=${form[key]}
        list=${key === 'bot_id' ? 'contact-bots' : undefined}
        onInput=${(e: Event) => setForm({ ...form, [key]: (e.target as HTMLInputElement).value })}
      />
    </div>`;
  const meta = page?.meta;

  return html`<section aria-labelledby="contacts-title">
    <h1 id="contacts-title">Contacts</h1>
    <form class="row" onSubmit=${submit} aria-label="Search contacts">
      ${input('bot_id', 'Bot ID (empty: every bot)', 'text')}
      ${input('date_from', 'Created from (UTC day)', 'date')}
      ${input('date_to', 'Created until (UTC day)', 'date')}
      <datalist id="contact-bots">${bots.map((b) => html`<option value=${String(b)} />`)}</datalist>
      <button type="submit">Search</button>
    </form>
    <${Banner} message=${error} />
    ${total !== undefined && html`<p role="status">${total} contact${total === 1 ? '' : 's'}</p>`}
    ${detail && html`<${ContactDetail} contact=${detail} onClose=${() => setDetail(undefined)} />`}
    ${
      page &&
      html`<table class="grid">
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Name</th>
            <th scope="col">Bot</th>
            <th scope="col">Messenger</th>
            <th scope="col">Phone</th>
            <th scope="col">Email</th>
            <th scope="col">Created</th>
            <th scope="col">Subscribed</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${page.data.map(
            (c) =>
              html`<tr>
                <td>${c.id}</td>
                <td>${c.name}</td>
                <td>${c.bot_id}</td>
                <td>${c.messenger}</td>
                <td>${c.phone ?? ''}</td>
                <td>${c.email ?? ''}</td>
                <td>${formatInstant(c.created_at)}</td>
                <td>
                  ${c.unsubscribed_at ? `no (since ${formatInstant(c.unsubscribed_at)})` : 'yes'}
                </td>
                <td>
                  <button
                    type="button"
                    aria-label=${`Details of contact ${c.id}`}
                    onClick=${() => setDetail(c)}
                  >
                    Details
                  </button>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`
    }
    ${
      meta &&
      html`<${PageNav}
        meta=${meta}
        status=${`Page ${meta.current_page} of ${meta.last_page}`}
        go=${setPageNumber}
      />`
    }
  </section>`;
}
