import { Form } from 'react-router';
import { Button } from '../ui/button.tsx';
import { LinkOutcome } from './link-outcome.tsx';

/**
 * The page an emailed link opens: a button that does what the link is for. Opening the link changes
 * nothing (a mail scanner that follows links confirms nothing); only the person's click, a POST, does.
 */
export function LinkConfirmation({
  token,
  title,
  explanation,
  button,
  outcome,
  next,
}: {
  token: string;
  title: string;
  explanation: string;
  button: string;
  /** What the click did, once it happened. */
  outcome: { ok: boolean; message: string } | undefined;
  next: { to: string; label: string };
}) {
  if (outcome) return <LinkOutcome {...outcome} title={title} next={next} />;
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-brand-800">{title}</h1>
      <p className="mt-4 text-gray-700">{explanation}</p>
      <Form method="post" className="mt-8">
        <input type="hidden" name="token" value={token} />
        <Button type="submit">{button}</Button>
      </Form>
    </section>
  );
}
