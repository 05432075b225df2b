import { data } from 'react-router';
import type { z } from 'zod';
import type { ServiceErrorStatus } from '../../common/errors.ts';

/** What an action answers when a form cannot be accepted: one message per field, and one for the form. */
export interface FormErrors {
  ok: false;
  formError: string | null;
  fieldErrors: Record<string, string>;
}

/** The body of a form post; null when it is not a form at all (a JSON body, a broken multipart, too large). */
export async function readForm(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

const UNREADABLE_FORM = 'The form could not be read. Please send it again.';

/** The fields of a submitted form, checked with the same contract the API route uses. */
export async function parseForm<S extends z.ZodType>(schema: S, request: Request): Promise<{ ok: true; data: z.output<S> } | FormErrors> {
  const formData = await readForm(request);
  if (!formData) return { ok: false, formError: UNREADABLE_FORM, fieldErrors: {} };
  const values: Record<string, unknown> = {};
  for (const [key, value] of formData) if (typeof value === 'string') values[key] = value;
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'form';
    fieldErrors[field] ??= issue.message;
  }
  return { ok: false, formError: result.error.issues[0]?.message ?? 'Please check the form.', fieldErrors };
}

/** A form refused by its contract (read by hand, not by parseForm): the first message, on its field. */
export function refusedBy(error: z.ZodError) {
  const issue = error.issues[0];
  return formErrors(issue?.message ?? 'Please check the form.', 400, issue ? { [String(issue.path[0] ?? 'form')]: issue.message } : {});
}

/** The answer to a post whose body is not a readable form. */
export const unreadableForm = () => formErrors(UNREADABLE_FORM);

// The built pages and the server each hold their own copy of common/errors.ts, so a service's error
// is recognised by its shape rather than by `instanceof`.
function asServiceError(error: unknown): { status: ServiceErrorStatus; message: string; field: string | undefined } | null {
  const candidate = error as { name?: unknown; status?: unknown; message?: unknown; field?: unknown };
  if (candidate?.name !== 'ServiceError' || typeof candidate.status !== 'number' || typeof candidate.message !== 'string') return null;
  return { status: candidate.status as ServiceErrorStatus, message: candidate.message, field: candidate.field as string | undefined };
}

/** The status and message of a refused form, for `data(errors, { status })`. */
export function formErrors(formError: string, status = 400, fieldErrors: Record<string, string> = {}) {
  return data<FormErrors>({ ok: false, formError, fieldErrors }, { status });
}

/**
 * Runs a service call for an action. A rule the service enforces (a taken email, a wrong password,
 * a limit) comes back as `refusal`, the action's answer with the form's errors and the rule's
 * status; anything else is a real failure and is thrown.
 */
export async function attempt<T>(
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; refusal: ReturnType<typeof formErrors>; status: ServiceErrorStatus; message: string }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const refused = asServiceError(error);
    if (!refused) throw error;
    const { status, message, field } = refused;
    return { ok: false, refusal: formErrors(message, status, field ? { [field]: message } : {}), status, message };
  }
}

/** A refused form (from parseForm), as the action's answer. */
export function invalid(errors: FormErrors) {
  return data(errors, { status: 400 });
}

/** The answer a form gets in the browser when its request failed on the way (network, server error). */
export interface RequestFailed extends FormErrors {
  requestFailed: true;
}

/**
 * For a route's `clientAction`: runs the server action and turns a failed request into an answer
 * the form can show (SPEC 8 alerts for network errors), instead of the route's error page.
 */
export async function orRequestFailed<T>(serverAction: () => Promise<T>): Promise<T | RequestFailed> {
  try {
    return await serverAction();
  } catch (error) {
    // A redirect (a session that ended sends staff to /admin/login) is an answer, not a failure.
    if (error instanceof Response) throw error;
    console.warn('The request failed:', error);
    return { ok: false, requestFailed: true, formError: null, fieldErrors: {} };
  }
}

/**
 * For `shouldRevalidate`: after a form whose request failed on the way, the page keeps its data
 * rather than asking the unreachable server again (which would replace the page with an error).
 */
export function unlessRequestFailed({
  actionResult,
  defaultShouldRevalidate,
}: {
  actionResult?: unknown;
  defaultShouldRevalidate: boolean;
}) {
  const failed = typeof actionResult === 'object' && actionResult !== null && 'requestFailed' in actionResult;
  return failed ? false : defaultShouldRevalidate;
}

/** Dollars typed in a form as cents (what the contracts hold); what is not a number stays as typed, for the contract to refuse. */
export function centsFromDollars(typed: FormDataEntryValue | null): unknown {
  const dollars = typeof typed === 'string' && typed.trim() !== '' ? Number(typed) : NaN;
  return Number.isFinite(dollars) ? Math.round(dollars * 100) : typed;
}
