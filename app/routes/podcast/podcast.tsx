import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Podcast', description: 'The RealtyPocket Coaching Podcast: free episodes for real estate agents and brokers.' });

export default function Page() {
  return <PageHeader title="RealtyPocket Coaching Podcast" />;
}
