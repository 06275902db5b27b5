export {
  createClient,
  type ClientOptions,
  type ListkeeperClient,
  type MethodFunctions,
} from './client.js';
export type { ChangesPage, FollowOptions } from './changes.js';
export { ListkeeperError } from './errors.js';
export { methodNames, type MethodName } from './generated/methods.js';
export type { components, paths } from './generated/openapi.js';
export type { Contact, ListItem, ListSchema, ParamsOf, ResultOf, Schemas } from './types.js';
