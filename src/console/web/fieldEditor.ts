import { html } from 'htm/preact';
import type { FieldErrors } from './consoleApi.js';
import { ErrorText, errorsAt, useId } from './consoleWidgets.js';
import { FIELD_TYPE_NAMES } from './fieldOperators.js';

/** A field as typed into a form, before createListSchema / addListSchemaField see it. */
export interface FieldDraft {
  name: string;
  slug: string;
  /** false until the user types a slug: till then it follows the name */
  slugEdited: boolean;
  type: string;
  currency: string;
  is_required: boolean;
  is_hidden: boolean;
  is_encryptable: boolean;
}

export const emptyField = (): FieldDraft => ({
  name: '',
  slug: '',
  slugEdited: false,
  type: 'string',
  currency: '',
  is_required: false,
  is_hidden: false,
  is_encryptable: false,
});

const slugOf = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 255);

/** The field as the API takes it: the currency only for money. */
export function fieldParams(draft: FieldDraft): Record<string, unknown> {
  return {
    name: draft.name,
    slug: draft.slug,
    type: draft.type,
    ...(draft.type === 'money' ? { currency: draft.currency.trim().toUpperCase() } : {}),
    is_required: draft.is_required,
    is_hidden: draft.is_hidden,
    is_encryptable: draft.is_encryptable,
  };
}

/**
 * One field's controls; `prefix` is where the API reports its errors (`fields.2` when
 * creating a list, `field` when adding one), so each message lands under its own control.
 */
export function FieldEditor(props: {
  legend: string;
  draft: FieldDraft;
  prefix: string;
  errors: FieldErrors;
  onChange: (draft: FieldDraft) => void;
  onRemove?: () => void;
}) {
  const { draft, prefix, errors } = props;
  const id = useId('field');
  const update = (change: Partial<FieldDraft>) => props.onChange({ ...draft, ...change });
  const text = (
    key: 'name' | 'slug' | 'currency',
    label: string,
    extra: Record<string, unknown> = {},
  ) => {
    const messages = errorsAt(errors, `${prefix}.${key}`);
    return html`<div class="control">
      <label for=${`${id}-${key}`}>${label}</label>
      <input
        id=${`${id}-${key}`}
        value=${draft[key]}
        aria-invalid=${messages.length > 0 ? 'true' : undefined}
        aria-describedby=${messages.length > 0 ? `${id}-${key}-error` : undefined}
        onInput=${(e: Event) => {
          const value = (e.target as HTMLInputElement).value;
          if (key === 'name')
            update(draft.slugEdited ? { name: value } : { name: value, slug: slugOf(value) });
          else if (key === 'slug') update({ slug: value, slugEdited: true });
          else update({ currency: value });
        }}
        ...${extra}
      />
      <${ErrorText} id=${`${id}-${key}-error`} messages=${messages} />
    </div>`;
  };
  const flag = (key: 'is_required' | 'is_hidden' | 'is_encryptable', label: string) => {
    const messages = errorsAt(errors, `${prefix}.${key}`);
    return html`<div class="control checkbox">
      <input
        id=${`${id}-${key}`}
        type="checkbox"
        checked=${draft[key]}
        aria-describedby=${messages.length > 0 ? `${id}-${key}-error` : undefined}
        onChange=${(e: Event) => update({ [key]: (e.target as HTMLInputElement).checked })}
      />
      <label for=${`${id}-${key}`}>${label}</label>
      <${ErrorText} id=${`${id}-${key}-error`} messages=${messages} />
    </div>`;
  };
  const typeErrors = errorsAt(errors, `${prefix}.type`);
  const otherErrors = errorsAt(errors, prefix);
  return html`<fieldset class="field-editor">
    <legend>${props.legend}</legend>
    ${text('name', 'Name')} ${text('slug', 'Slug', { spellcheck: false })}
    <div class="control">
      <label for=${`${id}-type`}>Type</label>
      <select
        id=${`${id}-type`}
        value=${draft.type}
        aria-describedby=${typeErrors.length > 0 ? `${id}-type-error` : undefined}
        onChange=${(e: Event) => update({ type: (e.target as HTMLSelectElement).value })}
      >
        ${FIELD_TYPE_NAMES.map((t) => html`<option value=${t}>${t}</option>`)}
      </select>
      <${ErrorText} id=${`${id}-type-error`} messages=${typeErrors} />
    </div>
    ${draft.type === 'money' && text('currency', 'Currency (ISO 4217)', { maxLength: 3, placeholder: 'EUR' })}
    ${flag('is_required', 'Required')} ${flag('is_hidden', 'Hidden')}
    ${flag('is_encryptable', 'Encrypted')}
    ${
      props.onRemove &&
      html`<button
        type="button"
        class="remove"
        onClick=${props.onRemove}
        aria-label=${`Remove ${props.legend}`}
      >
        Remove
      </button>`
    }
    <${ErrorText} id=${`${id}-error`} messages=${otherErrors} />
  </fieldset>`;
}
