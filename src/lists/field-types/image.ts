import { makeFileType } from './fileValue.js';

/** `image`: a link to a picture (spec 2.3). */
export const imageType = makeFileType('image');
