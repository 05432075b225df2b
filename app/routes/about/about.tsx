import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'About', description: 'About RealtyPocket: our mission, who we serve and our core values.' });

export default function Page() {
  return <PageHeader title="About RealtyPocket" />;
}
