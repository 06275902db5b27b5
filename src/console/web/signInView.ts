import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { apiKey, call, messageOf } from './consoleApi.js';
import type { Account } from './consoleTypes.js';
import { ErrorText } from './consoleWidgets.js';

/** Asks for an API key and keeps it for this tab once getMe accepts it. */
export function SignInView({ onSignedIn }: { onSignedIn: (account: Account) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const me = await call<{ data: Account }>('getMe', {}, key.trim());
      apiKey.set(key.trim());
      onSignedIn(me.data);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="sign-in">
    <h1>Listkeeper console</h1>
    <form onSubmit=${submit} aria-label="Sign in">
      <label for="api-key">API key</label>
      <input
        id="api-key"
        type="password"
        autocomplete="off"
        spellcheck=${false}
        required
        value=${key}
        aria-invalid=${error ? 'true' : undefined}
        aria-describedby=${error ? 'api-key-error' : 'api-key-hint'}
        onInput=${(e: Event) => setKey((e.target as HTMLInputElement).value)}
      />
      <p class="hint" id="api-key-hint">
        Kept in this tab only (sessionStorage) and sent as the Authorization header.
      </p>
      <${ErrorText} id="api-key-error" messages=${error ? [error] : []} />
      <button type="submit" disabled=${busy}>Sign in</button>
    </form>
  </main>`;
}
