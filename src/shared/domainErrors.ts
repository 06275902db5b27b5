/**
 * The errors the domain (lists, contacts, parameters) raises. They say what went wrong in the
 * domain's terms; `http/httpErrors.ts` alone decides which status and body each one gets.
 */
export type ValidationErrors = Record<string, string[]>;

export abstract class DomainError extends Error {}

/** Parameters that break a rule: every failing parameter with its messages (dotted keys). */
export class ValidationError extends DomainError {
  constructor(readonly errors: ValidationErrors) {
    super(validationMessage(errors));
  }
}

/** The object a parameter names does not exist (or is not the caller's, where that hides it). */
export class NotFoundError extends DomainError {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/** The object exists but belongs to another account. */
export class ForbiddenError extends DomainError {}

/** A project is at its list cap. */
export class ListCapReachedError extends DomainError {
  constructor(readonly max: number) {
    super(`A project cannot have more than ${max} lists.`);
  }
}

/** A change feed cursor older than what retention keeps (getChanges). */
export class CursorExpiredError extends DomainError {
  constructor() {
    super(
      'The cursor points before the oldest change kept; start again without since (a full resync).',
    );
  }
}

/**
 * A write lost to concurrent ones (the list's fields changed between validation and write,
 * attempt after attempt; or other writes of the same contact stayed ahead of it too long):
 * nothing was written, and the same request will most likely succeed when sent again (503).
 */
export class ContendedError extends DomainError {
  constructor(
    message = 'The list changed while the request was being written; nothing was written. Retry.',
  ) {
    super(message);
  }
}

/** Laravel's summary line: the first message, plus how many more there are. */
function validationMessage(errors: ValidationErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const rest = messages.length - 1;
  if (rest <= 0) return first;
  return `${first} (and ${rest} more error${rest === 1 ? '' : 's'})`;
}

/** The domain's error catalog: one factory per case, so each case has one message. */
export const domainErrors = {
  listNotFound: () => new NotFoundError('schema_id', 'List not found.'),
  itemNotFound: () => new NotFoundError('item_id', 'List item not found.'),
  botNotFound: () => new NotFoundError('bot_id', 'Bot not found.'),
  webhookNotFound: () => new NotFoundError('webhook_id', 'Webhook not found.'),
  /** a list, or an item of a list, of another account: the one answer of every list method */
  foreignList: () => new ForbiddenError('This list belongs to a project of another account.'),
  foreignBot: () => new ForbiddenError('This bot belongs to another account.'),
  foreignProject: () => new ForbiddenError('This project belongs to another account.'),
  foreignWebhook: () => new ForbiddenError('This webhook belongs to another account.'),
  /** a record's contact or bot value of another account */
  foreignReference: () => new ForbiddenError('The contact or bot belongs to another account.'),
  tooManyWebhooks: (max: number) =>
    new ForbiddenError(`An account cannot have more than ${max} webhooks.`),
  cursorExpired: () => new CursorExpiredError(),
  contended: () => new ContendedError(),
  /** a contact write that waited too long behind other writes of its contacts (contactLocks.ts) */
  contactBusy: () =>
    new ContendedError(
      'Other writes of the same contact were ahead of this one for too long; nothing was written. Retry.',
    ),
  tooManyLists: (max: number) => new ListCapReachedError(max),
  validation: (errs: ValidationErrors) => new ValidationError(errs),
  /** 422 with a single key. */
  invalid: (key: string, message: string) => new ValidationError({ [key]: [message] }),
};
