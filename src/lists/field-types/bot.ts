import { makeReferenceType } from './reference.js';

/** `bot`: the ID of one of the caller's bots (addListItem). */
export const botType = makeReferenceType('bot');
