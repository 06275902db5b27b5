import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { FieldErrors } from './consoleApi.js';

let nextId = 0;
/** A stable id for tying a label or an error to its control. */
export function useId(prefix: string): string {
  const ref = useRef<string | undefined>(undefined);
  ref.current ??= `${prefix}-${++nextId}`;
  return ref.current;
}

/** The messages of one parameter, as a 422 keys them. */
export function errorsAt(errors: FieldErrors, key: string): string[] {
  return errors[key] ?? [];
}

/** The text under a control saying what the API refused; `id` is its aria-describedby. */
export function ErrorText({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return html`<p class="field-error" id=${id} role="alert">${messages.join(' ')}</p>`;
}

export function Banner({
  message,
  kind = 'error',
}: {
  message: string | undefined;
  kind?: 'error' | 'info';
}) {
  if (!message) return null;
  return html`<p class=${`banner banner-${kind}`} role=${kind === 'error' ? 'alert' : 'status'}>
    ${message}
  </p>`;
}

/** Copies `text`; the result is announced to screen readers. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('Copied');
    } catch {
      setState('Copy failed: select the text and copy it');
    }
  };
  return html`<span class="copy">
    <button type="button" onClick=${copy}>${label}</button>
    <span class="copy-state" role="status">${state}</span>
  </span>`;
}

/**
 * A modal confirmation (the native dialog: focus is held inside, Escape cancels). The
 * question names what will go, so a click cannot delete the wrong thing unseen.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const confirm = async () => {
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return html`<dialog
    ref=${ref}
    class="confirm"
    aria-label=${props.title}
    onCancel=${props.onCancel}
  >
    <h2>${props.title}</h2>
    <div>${props.children}</div>
    <div class="actions">
      <button type="button" autofocus onClick=${props.onCancel}>Cancel</button>
      <button type="button" class="danger" disabled=${busy} onClick=${confirm}>
        ${props.confirmLabel}
      </button>
    </div>
  </dialog>`;
}

/** What a view shows while its first answer is on the way. */
export function Loading({ what }: { what: string }) {
  return html`<p class="loading" role="status">Loading ${what}…</p>`;
}
