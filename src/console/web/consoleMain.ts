import { html, render } from 'htm/preact';
import { App } from './consoleApp.js';
import './console.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
