// The one error type business rules throw. Its message is meant for the person who sent the
// request; the API answers `{detail}` with its status, and page actions show it in the form.
export type ServiceErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 416 | 429 | 503;

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
