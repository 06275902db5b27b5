import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { SchemaField } from './consoleTypes.js';
import { useId } from './consoleWidgets.js';
import type { FilterCondition } from './curlCommand.js';
import { operatorsFor } from './fieldOperators.js';

/** A value box suited to the field's type; the API takes each as text. */
export function ValueInput(props: {
  id: string;
  label: string;
  type: string;
  value: string;
  describedBy?: string;
  invalid?: boolean;
  onInput: (value: string) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
}) {
  const common = {
    id: props.id,
    'aria-label': props.label,
    'aria-invalid': props.invalid ? 'true' : undefined,
    'aria-describedby': props.describedBy,
    onKeyDown: props.onKeyDown,
  };
  if (props.type === 'bool') {
    return html`<select
      ...${common}
      value=${props.value}
      onChange=${(e: Event) => props.onInput((e.target as HTMLSelectElement).value)}
    >
      <option value="">—</option>
      <option value="true">yes</option>
      <option value="false">no</option>
    </select>`;
  }
  const kind = props.type === 'date' ? 'date' : 'text';
  const placeholder =
    props.type === 'datetime'
      ? '2026-01-31 12:00 (UTC)'
      : props.type === 'file' || props.type === 'image'
        ? 'https://…'
        : undefined;
  const numeric = ['number', 'money', 'contact', 'bot'].includes(props.type);
  return html`<input
    ...${common}
    type=${kind}
    inputmode=${numeric ? 'decimal' : undefined}
    placeholder=${placeholder}
    value=${props.value}
    onInput=${(e: Event) => props.onInput((e.target as HTMLInputElement).value)}
  />`;
}

/**
 * getListItems' filters, one condition per field (the parameter maps a slug to one
 * condition, combined with AND), offering only the operators the field's type accepts.
 */
export function FilterBuilder(props: {
  fields: SchemaField[];
  applied: FilterCondition[];
  onApply: (conditions: FilterCondition[]) => void;
}) {
  const filterable = props.fields.filter((f) => operatorsFor(f).length > 0);
  const [rows, setRows] = useState<FilterCondition[]>(props.applied);
  const id = useId('filter');
  const fieldOf = (slug: string) => filterable.find((f) => f.slug === slug);
  const unused = filterable.filter((f) => !rows.some((r) => r.slug === f.slug));

  const add = () => {
    const field = unused[0];
    if (field)
      setRows([...rows, { slug: field.slug, op: operatorsFor(field)[0] ?? '=', value: '' }]);
  };
  const change = (index: number, next: Partial<FilterCondition>) => {
    setRows(
      rows.map((row, i) => {
        if (i !== index) return row;
        const merged = { ...row, ...next };
        const field = fieldOf(merged.slug);
        const operators = field ? operatorsFor(field) : [];
        // A new field may not take the old operator or value (a date after a text).
        if (next.slug !== undefined && next.slug !== row.slug)
          return { slug: merged.slug, op: operators[0] ?? '=', value: '' };
        return merged;
      }),
    );
  };
  const apply = (event: Event) => {
    event.preventDefault();
    props.onApply(rows.filter((r) => r.value !== ''));
  };

  return html`<form class="filter-builder" onSubmit=${apply} aria-label="Filters">
    <h2>Filters</h2>
    ${rows.length === 0 && html`<p class="hint">No filter: every record.</p>`}
    ${rows.map((row, index) => {
      const field = fieldOf(row.slug);
      return html`<div class="filter-row" role="group" aria-label=${`Condition ${index + 1}`}>
        <label for=${`${id}-${index}-field`}>Field</label>
        <select
          id=${`${id}-${index}-field`}
          value=${row.slug}
          onChange=${(e: Event) => change(index, { slug: (e.target as HTMLSelectElement).value })}
        >
          ${filterable
            .filter((f) => f.slug === row.slug || !rows.some((r) => r.slug === f.slug))
            .map((f) => html`<option value=${f.slug}>${f.name} (${f.type})</option>`)}
        </select>
        <label for=${`${id}-${index}-op`}>Operator</label>
        <select
          id=${`${id}-${index}-op`}
          value=${row.op}
          onChange=${(e: Event) => change(index, { op: (e.target as HTMLSelectElement).value })}
        >
          ${(field ? operatorsFor(field) : []).map((op) => html`<option value=${op}>${op}</option>`)}
        </select>
        <label for=${`${id}-${index}-value`}>Value</label>
        <${ValueInput}
          id=${`${id}-${index}-value`}
          label=${`Value for ${field?.name ?? row.slug}`}
          type=${field?.type ?? 'string'}
          value=${row.value}
          onInput=${(value: string) => change(index, { value })}
        />
        <button
          type="button"
          aria-label=${`Remove the condition on ${field?.name ?? row.slug}`}
          onClick=${() => setRows(rows.filter((_, i) => i !== index))}
        >
          Remove
        </button>
      </div>`;
    })}
    <div class="actions">
      <button type="button" onClick=${add} disabled=${unused.length === 0}>Add condition</button>
      <button type="submit">Apply filters</button>
      ${
        rows.length > 0 &&
        html`<button
          type="button"
          onClick=${() => {
            setRows([]);
            props.onApply([]);
          }}
        >
          Clear
        </button>`
      }
    </div>
  </form>`;
}
