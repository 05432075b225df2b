// The one error type business rules throw. Its message is meant for the person who sent the
// request; the API answers `{detail}` with its status, and page actions show it in the form.
export type ServiceErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 416 | 429 | 503 | 507;

export class ServiceError extends Error {
  readonly status: ServiceErrorStatus;
  /** The form field the message is about, when there is one. */
  readonly field: string | undefined;

  constructor(status: ServiceErrorStatus, detail: string, field?: string) {
    super(detail);
    this.name = 'ServiceError';
    this.status = status;
    this.field = field;
  }
}

export const badRequest = (detail: string, field?: string) => new ServiceError(400, detail, field);
export const unauthorized = (detail = 'Please sign in to continue.') => new ServiceError(401, detail);
export const forbidden = (detail = 'You do not have access to this.') => new ServiceError(403, detail);
export const notFound = (detail: string) => new ServiceError(404, detail);
export const conflict = (detail: string) => new ServiceError(409, detail);
/** Something the site depends on is away for now; the answer carries `Retry-After`. */
export const unavailable = (detail: string) => new ServiceError(503, detail);

// What a member reads when something the site depends on is away (docs/decisions/011). Each answer
// is a 503 with `Retry-After`, so browsers, apps and balancers know to try again shortly.
export const DATABASE_UNAVAILABLE = 'The site cannot reach its database right now. Please try again in a few seconds.';
export const PAYMENTS_UNAVAILABLE = 'Payments are unavailable right now. Please try again in a few minutes.';
export const STORAGE_FULL = 'The file store is full, so the file was not saved. Please tell the site owner.';
export const SHUTTING_DOWN = 'The server is restarting. Please try again in a few seconds.';
