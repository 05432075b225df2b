import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Admin Dashboard', description: 'RealtyPocket administration.' });

export default function Page() {
  return <PageHeader title="Admin Dashboard" />;
}
