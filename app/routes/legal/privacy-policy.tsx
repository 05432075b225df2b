import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Privacy Policy', description: 'How RealtyPocket collects, uses and protects your information.' });

export default function Page() {
  return <PageHeader title="Privacy Policy" />;
}
