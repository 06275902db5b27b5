import { makeReferenceType } from './reference.js';

/** `contact`: a contact ID of one of the caller's bots (spec 4.8). */
export const contactType = makeReferenceType('contact');
