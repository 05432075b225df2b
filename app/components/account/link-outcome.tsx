import { ButtonLink } from '../ui/button.tsx';

/** What happened when an emailed link was opened: done, or why not, and where to go next. */
export function LinkOutcome({
  ok,
  title,
  message,
  next,
}: {
  ok: boolean;
  title: string;
  message: string;
  next: { to: string; label: string };
}) {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-extrabold text-brand-800">{title}</h1>
      <p role={ok ? 'status' : 'alert'} className={`mt-4 ${ok ? 'text-green-800' : 'text-red-800'}`}>
        {message}
      </p>
      <ButtonLink to={next.to} className="mt-8">
        {next.label}
      </ButtonLink>
    </section>
  );
}
