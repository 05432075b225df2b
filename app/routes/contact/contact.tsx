import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Contact Us', description: 'Contact the RealtyPocket team.' });

export default function Page() {
  return <PageHeader title="Contact Us" />;
}
