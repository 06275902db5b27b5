import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { call, messageOf } from './consoleApi.js';
import { fieldsOf, type ListSchema } from './consoleTypes.js';
import { Banner, Loading } from './consoleWidgets.js';
import { RecordsGrid } from './recordsGrid.js';
import { SchemaPanel } from './schemaPanel.js';

/** One list: its fields (add, delete) and its records as a grid. */
export function ListPage({ schemaId }: { schemaId: string }) {
  const [schema, setSchema] = useState<ListSchema | undefined>();
  const [error, setError] = useState('');
  const [showFields, setShowFields] = useState(false);

  const load = async () => {
    try {
      setSchema((await call<{ data: ListSchema }>('getListSchema', { schema_id: schemaId })).data);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => void load(), [schemaId]);

  if (!schema)
    return error ? html`<${Banner} message=${error} />` : html`<${Loading} what="the list" />`;
  const fields = fieldsOf(schema);
  return html`<section aria-labelledby="list-title">
    <p><a href="#/lists">← All lists</a></p>
    <div class="title-row">
      <h1 id="list-title">${schema.name}</h1>
      <button type="button" aria-expanded=${showFields} onClick=${() => setShowFields(!showFields)}>
        ${showFields ? 'Hide fields' : `Fields (${fields.length})`}
      </button>
    </div>
    <p class="meta">
      List <code>${schema.id}</code> · project <code>${schema.project}</code>
      ${schema.bot_id != null && html` · bot ${schema.bot_id}`}
    </p>
    ${showFields && html`<${SchemaPanel} schema=${schema} fields=${fields} onChanged=${load} />`}
    <${RecordsGrid}
      key=${schema.updated_at + fields.map((f) => f.slug).join()}
      schema=${schema}
      fields=${fields}
    />
  </section>`;
}
