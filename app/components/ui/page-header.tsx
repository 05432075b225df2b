/** The dark red banner that opens most public pages. */
export function PageHeader({
  title,
  subtitle,
  children,
}: {
  title: React.ReactNode;
  subtitle?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 px-4 py-14 text-center text-white sm:py-20">
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
      {subtitle && <p className="mx-auto mt-4 max-w-2xl text-base text-gold-100 sm:text-lg">{subtitle}</p>}
      {children}
    </section>
  );
}
