import type { ApiMethod } from './method.js';
import { getMe } from './getMe.js';

/** Every method the API answers, by its exact name (spec 1). */
const all: ApiMethod[] = [getMe];

export const methods: ReadonlyMap<string, ApiMethod> = new Map(all.map((m) => [m.name, m]));
