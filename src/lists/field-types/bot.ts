import { makeReferenceType } from './reference.js';

/** `bot`: the ID of one of the caller's bots (spec 4.8). */
export const botType = makeReferenceType('bot');
