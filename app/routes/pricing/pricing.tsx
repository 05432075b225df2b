import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Pricing', description: 'Bronze, Silver and Gold membership plans for real estate professionals, monthly or yearly.' });

export default function Page() {
  return <PageHeader title="Pricing" />;
}
