import type { FormErrors } from '../../lib/forms.ts';

/**
 * What a staff form's action answers: a message when it worked (an upload answers with its URL
 * instead), the reason (per field too) when it was refused. Actions' typed answers fit it as they
 * are, so pages pass `fetcher.data` straight in.
 */
export type Answer = { ok: true; message?: string } | FormErrors;

/** The answer, shown under the form and announced to screen readers. */
export function Outcome({ answer }: { answer: Answer | undefined }) {
  if (!answer) return null;
  return answer.ok ? (
    <p role="status" className="text-sm font-semibold text-green-800">
      {answer.message}
    </p>
  ) : (
    <p role="alert" className="text-sm text-red-700">
      {answer.formError}
    </p>
  );
}
