/** A provisioning failure the operator can act on (printed as one line by the CLI). */
export class OperatorError extends Error {}
