import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Sign Up', description: 'Create your free RealtyPocket account.' });

export default function Page() {
  return <PageHeader title="Start Your Journey" />;
}
