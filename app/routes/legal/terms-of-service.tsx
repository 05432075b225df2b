import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Terms of Service', description: 'The terms that govern your use of RealtyPocket.' });

export default function Page() {
  return <PageHeader title="Terms of Service" />;
}
