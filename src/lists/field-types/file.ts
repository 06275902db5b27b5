import { makeFileType } from './fileValue.js';

/** `file`: a link to a document (the list item shape). */
export const fileType = makeFileType('file');
