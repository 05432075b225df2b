/**
 * The form's error for a browser without JavaScript (which cannot show toasts); with JavaScript the
 * same message arrives as a toast.
 */
export function NoScriptFormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <noscript>
      <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
        {message}
      </p>
    </noscript>
  );
}
