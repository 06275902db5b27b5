import { describeFuzz } from './fuzz/describeFuzz.js';

describeFuzz([
  'getListItems',
  'addListItem',
  'updateListItem',
  'deleteListItem',
  'addListItems',
  'updateListItems',
  'deleteListItems',
]);
