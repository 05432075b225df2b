import { BRAND_NAME } from '../../../common/brand.ts';

/** The centred card of the admin's sign-in pages, on the brand's dark red. */
export function AdminCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-900 to-brand-700 px-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-2xl">
        <h1 className="text-center text-3xl font-extrabold text-brand-800">{title}</h1>
        <p className="mt-2 text-center text-gray-600">{BRAND_NAME} Coaching Admin Panel</p>
        <div className="mt-8">{children}</div>
      </div>
    </main>
  );
}
