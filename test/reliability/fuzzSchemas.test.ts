import { describeFuzz } from './fuzz/describeFuzz.js';

describeFuzz(['getMe', 'getListSchemas', 'getListSchema', 'createListSchema']);
