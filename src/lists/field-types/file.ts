import { makeFileType } from './fileValue.js';

/** `file`: a link to a document (spec 2.3). */
export const fileType = makeFileType('file');
