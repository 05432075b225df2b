/** What a staff form's action answered: a message when it worked, the reason (per field too) when it was refused. */
export type Answer = { ok: true; message: string } | { ok: false; formError: string | null; fieldErrors: Record<string, string> };

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
