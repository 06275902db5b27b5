import { describeFuzz } from './fuzz/describeFuzz.js';

describeFuzz([
  'getContacts',
  'getNumberOfContacts',
  'createOrUpdateContact',
  'createOrUpdateContacts',
]);
