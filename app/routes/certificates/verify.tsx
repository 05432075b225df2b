import { data, Link } from 'react-router';
import { BRAND_NAME } from '../../../common/brand.ts';
import { CertificateParams } from '../../../common/learning.contract.ts';
import { formatDate } from '../../../common/format.ts';
import { pageMeta } from '../../lib/meta.ts';
import { attempt } from '../../lib/forms.ts';
import { pageServices } from '../../lib/page-context.ts';
import type { Route } from './+types/verify';

export async function loader({ context, params }: Route.LoaderArgs) {
  const code = CertificateParams.safeParse(params);
  if (!code.success) return data({ certificate: null }, { status: 404 });
  const found = await attempt(() => pageServices(context).services.learning.verifyCertificate(code.data.code));
  // Only an unknown code is "not found"; any other failure is a real error page.
  return found.ok ? { certificate: found.value } : data({ certificate: null }, { status: 404 });
}

export const meta = () => pageMeta({ title: 'Certificate Verification', description: `Verify a ${BRAND_NAME} certificate of completion.` });

/** Public page anyone (an employer, a broker) can open to check a certificate's code. */
export default function CertificateVerificationPage({ loaderData }: Route.ComponentProps) {
  const { certificate } = loaderData;
  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      {certificate ? (
        <div className="rounded-2xl border-4 border-gold-400 bg-white p-8 text-center shadow-lg">
          <p className="text-sm font-semibold uppercase tracking-wide text-green-700">✓ Verified certificate</p>
          <h1 className="mt-3 text-2xl font-extrabold text-brand-800 sm:text-3xl">{certificate.member_name}</h1>
          <p className="mt-3 text-gray-700">completed every lesson of</p>
          <p className="mt-1 text-xl font-bold text-gray-900">{certificate.course_title}</p>
          {certificate.score_percent !== null && (
            <p className="mt-2 font-semibold text-gray-800">Quiz score: {certificate.score_percent}%</p>
          )}
          <p className="mt-4 text-gray-600">
            Issued {formatDate(certificate.issued_at, 'long')} by {BRAND_NAME}
          </p>
          <p className="mt-2 font-mono text-sm text-gray-500">{certificate.code}</p>
        </div>
      ) : (
        <div className="text-center">
          <h1 className="text-3xl font-extrabold text-brand-800">Certificate not found</h1>
          <p className="mt-4 text-gray-600">No certificate has this verification code. Check the code and try again.</p>
        </div>
      )}
      <div className="mt-8 text-center">
        <Link to="/courses" className="inline-flex min-h-11 items-center font-semibold text-brand-800 hover:text-brand-600">
          Browse Courses
        </Link>
      </div>
    </section>
  );
}
