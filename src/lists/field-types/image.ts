import { makeFileType } from './fileValue.js';

/** `image`: a link to a picture (the list item shape). */
export const imageType = makeFileType('image');
