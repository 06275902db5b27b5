import { html } from 'htm/preact';
import { CHANGE_TYPES } from '../../changes/changeTypes.js';

/** Checkboxes of the feed's change types (getChanges' and createWebhook's `types`). */
export function ChangeTypesPicker({
  value,
  onChange,
}: {
  value: string[];
  onChange: (types: string[]) => void;
}) {
  const toggle = (type: string, on: boolean) =>
    onChange(on ? [...value, type] : value.filter((t) => t !== type));
  return html`<fieldset class="types">
    <legend>Types (none checked: all)</legend>
    ${CHANGE_TYPES.map(
      (type) =>
        html`<label class="checkbox">
          <input
            type="checkbox"
            checked=${value.includes(type)}
            onChange=${(e: Event) => toggle(type, (e.target as HTMLInputElement).checked)}
          />
          ${type}
        </label>`,
    )}
  </fieldset>`;
}
