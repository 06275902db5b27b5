import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, messageOf } from './consoleApi.js';
import { ChangeTypesPicker } from './changeTypesPicker.js';
import type { Change, ListSchema } from './consoleTypes.js';
import { Banner } from './consoleWidgets.js';
import { loadLists } from './knownLists.js';
import { formatInstant } from './valueFormat.js';

/** Changes kept on screen; older ones drop off the bottom. */
const KEEP = 500;
/** How often the head is asked again once reached. */
const POLL_MS = 3000;

interface TailFilter {
  schema_id: string;
  types: string[];
}

function summary(change: Change): string {
  const parts = [
    change.schema_id && `list ${change.schema_id}`,
    change.item_id && `record ${change.item_id}`,
    change.contact_id !== undefined && `contact ${change.contact_id}`,
    change.bot_id !== undefined && `bot ${change.bot_id}`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/**
 * getChanges followed live, newest first. The feed is read from a cursor in commit order;
 * while the reader scrolls away from the top the tail pauses (no request, nothing moves
 * under the eyes) and the cursor waits, so nothing is missed when it resumes.
 */
export function ChangesView() {
  const [filter, setFilter] = useState<TailFilter>({ schema_id: '', types: [] });
  const [changes, setChanges] = useState<Change[]>([]);
  const [scrolled, setScrolled] = useState(false);
  const [held, setHeld] = useState(false);
  const [catchingUp, setCatchingUp] = useState(true);
  const [error, setError] = useState('');
  const [lists, setLists] = useState<ListSchema[]>([]);
  const cursor = useRef<string | undefined>(undefined);
  const paused = scrolled || held;

  useEffect(() => {
    loadLists()
      .then((answer) => setLists(answer.lists))
      .catch(() => undefined);
  }, []);
  // A new filter is a new feed: its cursor starts again.
  useEffect(() => {
    cursor.current = undefined;
    setChanges([]);
    setCatchingUp(true);
  }, [filter]);
  useEffect(() => {
    if (paused) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      let delay = POLL_MS;
      try {
        const params: Record<string, unknown> = { limit: 1000 };
        if (cursor.current) params.since = cursor.current;
        if (filter.schema_id) params.schema_id = filter.schema_id;
        if (filter.types.length > 0) params.types = filter.types;
        const answer = await call<{
          data: Change[];
          meta: { next_cursor: string; has_more: boolean };
        }>('getChanges', params);
        if (stopped) return;
        cursor.current = answer.meta.next_cursor;
        if (answer.data.length > 0)
          setChanges((old) => [...answer.data.reverse(), ...old].slice(0, KEEP));
        setCatchingUp(answer.meta.has_more);
        setError('');
        if (answer.meta.has_more) delay = 0;
      } catch (err) {
        if (stopped) return;
        // An expired cursor: start again from the oldest change kept.
        if (err instanceof ApiError && err.status === 410) cursor.current = undefined;
        setError(messageOf(err));
      }
      timer = setTimeout(() => void tick(), delay);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [paused, filter]);

  return html`<section aria-labelledby="changes-title">
    <div class="title-row">
      <h1 id="changes-title">Changes</h1>
      <button type="button" aria-pressed=${held} onClick=${() => setHeld(!held)}>
        ${held ? 'Resume' : 'Pause'}
      </button>
    </div>
    <form class="row" aria-label="Filter changes" onSubmit=${(e: Event) => e.preventDefault()}>
      <div class="control">
        <label for="changes-list">List</label>
        <select
          id="changes-list"
          value=${filter.schema_id}
          onChange=${(e: Event) => setFilter({ ...filter, schema_id: (e.target as HTMLSelectElement).value })}
        >
          <option value="">Every list and contact</option>
          ${lists.map((l) => html`<option value=${l.id}>${l.name}</option>`)}
        </select>
      </div>
      <${ChangeTypesPicker}
        value=${filter.types}
        onChange=${(types: string[]) => setFilter({ ...filter, types })}
      />
    </form>
    <p role="status" class="tail-status">
      ${
        paused
          ? scrolled
            ? 'Paused while scrolled: scroll back to the top to resume.'
            : 'Paused.'
          : catchingUp
            ? 'Catching up with the feed…'
            : 'Live: newest first, asked again every 3 s.'
      }
    </p>
    <${Banner} message=${error} />
    <ol
      class="tail"
      tabindex="0"
      aria-label="Changes, newest first"
      onScroll=${(e: Event) => setScrolled((e.target as HTMLElement).scrollTop > 4)}
    >
      ${changes.map(
        (c) =>
          html`<li>
            <span class="change-time">${formatInstant(c.occurred_at)}</span>
            <span class="change-type">${c.type}</span>
            <span class="change-subject">${summary(c)}</span>
            ${c.data !== undefined && html`<code class="change-data">${JSON.stringify(c.data)}</code>`}
          </li>`,
      )}
    </ol>
  </section>`;
}
