/** The centred card around the login and signup forms. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle: string; children: React.ReactNode }) {
  return (
    <section className="flex min-h-[70vh] items-center justify-center bg-gradient-to-br from-brand-50 to-gold-100 px-4 py-12">
      <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl sm:p-8">
        <h1 className="text-center text-3xl font-extrabold text-brand-800">{title}</h1>
        <p className="mt-2 text-center text-gray-600">{subtitle}</p>
        <div className="mt-8">{children}</div>
      </div>
    </section>
  );
}

export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-sm text-gray-500">
      <span className="h-px flex-1 bg-gray-200" />
      or
      <span className="h-px flex-1 bg-gray-200" />
    </div>
  );
}
