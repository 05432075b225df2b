import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Admin Login', description: 'RealtyPocket administrator sign-in.' });

export default function Page() {
  return <PageHeader title="Admin Login" />;
}
