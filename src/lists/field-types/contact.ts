import { makeReferenceType } from './reference.js';

/** `contact`: a contact ID of one of the caller's bots (addListItem). */
export const contactType = makeReferenceType('contact');
