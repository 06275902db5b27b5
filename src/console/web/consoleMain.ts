import { html, render } from 'htm/preact';
import { options } from 'preact';
import { apiKey, callEarly } from './consoleApi.js';
import { App } from './consoleApp.js';
import { INITIAL_GRID_QUERY, listItemsParams } from './curlCommand.js';
import './console.css';

// The console's effects only start requests, timers and dialogs: run them right after the
// render that schedules them instead of after the next frame, so opening a list does not
// wait for a paint between asking for the schema, the records and drawing the grid.
options.requestAnimationFrame = (callback) => setTimeout(callback, 0);

// Opening a list (a link, a reload): its schema and first page are asked for at once,
// side by side with getMe, rather than one after another as the views mount.
const opened = /^#\/lists\/([^/]+)$/.exec(location.hash);
if (opened && apiKey.get()) {
  const schemaId = decodeURIComponent(opened[1]!);
  callEarly('getListSchema', { schema_id: schemaId });
  callEarly('getListItems', listItemsParams(schemaId, INITIAL_GRID_QUERY));
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
