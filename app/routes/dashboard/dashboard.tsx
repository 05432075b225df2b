import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Dashboard', description: 'Your RealtyPocket member dashboard.' });

export default function Page() {
  return <PageHeader title="Dashboard" />;
}
