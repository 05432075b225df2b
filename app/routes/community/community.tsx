import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Community', description: 'Discussions among real estate agents and brokers in the RealtyPocket community.' });

export default function Page() {
  return <PageHeader title="RealtyPocket Community" />;
}
