import { Link } from 'react-router';

/** A closing banner with one or two buttons, used at the bottom of the list pages. */
export function CallToAction({ title, text, actions }: { title: string; text: string; actions: { to: string; label: string }[] }) {
  return (
    <section className="mx-auto my-16 max-w-5xl rounded-3xl bg-gradient-to-br from-brand-900 to-brand-700 px-6 py-12 text-center text-white">
      <h2 className="text-2xl font-extrabold sm:text-3xl">{title}</h2>
      <p className="mx-auto mt-3 max-w-2xl text-gold-100">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {actions.map((action, index) => (
          <Link
            key={action.to + action.label}
            to={action.to}
            className={
              index === 0
                ? 'rounded-lg bg-gold-400 px-6 py-3 font-semibold text-brand-900 hover:bg-gold-300'
                : 'rounded-lg border border-white px-6 py-3 font-semibold text-white hover:bg-white/10'
            }
          >
            {action.label}
          </Link>
        ))}
      </div>
    </section>
  );
}
