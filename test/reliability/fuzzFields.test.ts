import { describeFuzz } from './fuzz/describeFuzz.js';

describeFuzz(['addListSchemaField', 'deleteListSchemaField', 'deleteListSchema']);
