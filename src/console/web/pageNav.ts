import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';
import type { PageMeta } from './consoleTypes.js';

/** First / Previous / where we are / Next / Last for a page of the paging envelope. */
export function PageNav(props: {
  meta: PageMeta;
  status: string;
  go: (page: number) => void;
  children?: ComponentChildren;
}) {
  const { current_page: current, last_page: last } = props.meta;
  const button = (label: string, page: number, disabled: boolean) =>
    html`<button type="button" disabled=${disabled} onClick=${() => props.go(page)}>
      ${label}
    </button>`;
  return html`<nav class="pager" aria-label="Pages">
    ${button('First', 1, current <= 1)} ${button('Previous', current - 1, current <= 1)}
    <span role="status" class="page-status">${props.status}</span>
    ${button('Next', current + 1, current >= last)} ${button('Last', last, current >= last)}
    ${props.children}
  </nav>`;
}
