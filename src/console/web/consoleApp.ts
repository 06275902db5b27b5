import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { apiKey, call, whenUnauthorized } from './consoleApi.js';
import type { Account } from './consoleTypes.js';
import { ChangesView } from './changesView.js';
import { ContactsView } from './contactsView.js';
import { forgetLists } from './knownLists.js';
import { ListPage } from './listPage.js';
import { ListsView } from './listsView.js';
import { SignInView } from './signInView.js';
import { WebhooksView } from './webhooksView.js';

/** Where the console is, from the URL's fragment (`#/lists/<id>`): no parameter reaches a server. */
interface Route {
  view: 'lists' | 'list' | 'contacts' | 'changes' | 'webhooks';
  id?: string;
}

function routeOf(hash: string): Route {
  const [, view = 'lists', id] = hash.replace(/^#/, '').split('/');
  if (view === 'lists' && id) return { view: 'list', id: decodeURIComponent(id) };
  if (view === 'contacts' || view === 'changes' || view === 'webhooks') return { view };
  return { view: 'lists' };
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

const SECTIONS = [
  ['lists', 'Lists'],
  ['contacts', 'Contacts'],
  ['changes', 'Changes'],
  ['webhooks', 'Webhooks'],
] as const;

/**
 * The header's account (getMe). Its own component, so the answer arriving redraws the
 * header only, not a grid that may already be on screen.
 */
function AccountBadge({ initial }: { initial?: Account }) {
  const [account, setAccount] = useState(initial);
  useEffect(() => {
    if (account) return;
    call<{ data: Account }>('getMe')
      .then((me) => setAccount(me.data))
      // a 401 signs out (whenUnauthorized); other failures leave the header as it is
      .catch(() => undefined);
  }, []);
  return html`<p class="account" aria-label="Signed in as">
    ${
      account
        ? html`<span class="account-name">${account.name}</span>
            <span class="account-email">${account.email}</span>
            <span class="account-plan">${account.plan}</span>
            <span class="account-id">account #${account.id}</span>`
        : html`<span>…</span>`
    }
  </p>`;
}

export function App() {
  // the account getMe gave at sign-in; with a key from earlier in this tab the views open at
  // once and the header asks getMe itself
  const [account, setAccount] = useState<Account | undefined>();
  const [signedIn, setSignedIn] = useState(() => apiKey.get() !== null);
  const route = useRoute();

  const signOut = () => {
    apiKey.clear();
    forgetLists();
    setAccount(undefined);
    setSignedIn(false);
  };
  const signIn = (me: Account) => {
    setAccount(me);
    setSignedIn(true);
  };
  useEffect(() => whenUnauthorized(signOut), []);

  if (!signedIn) return html`<${SignInView} onSignedIn=${signIn} />`;

  const section = route.view === 'list' ? 'lists' : route.view;
  return html`<div class="shell">
    <header>
      <a class="brand" href="#/lists">Listkeeper console</a>
      <nav aria-label="Sections">
        ${SECTIONS.map(
          ([view, label]) =>
            html`<a href=${`#/${view}`} aria-current=${section === view ? 'page' : undefined}
              >${label}</a
            >`,
        )}
      </nav>
      <${AccountBadge} initial=${account} />
      <button type="button" onClick=${signOut}>Sign out</button>
    </header>
    <main>
      ${route.view === 'lists' && html`<${ListsView} />`}
      ${route.view === 'list' && route.id && html`<${ListPage} key=${route.id} schemaId=${route.id} />`}
      ${route.view === 'contacts' && html`<${ContactsView} />`}
      ${route.view === 'changes' && html`<${ChangesView} />`}
      ${route.view === 'webhooks' && html`<${WebhooksView} />`}
    </main>
  </div>`;
}
