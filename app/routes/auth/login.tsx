import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Login', description: 'Sign in to your RealtyPocket account.' });

export default function Page() {
  return <PageHeader title="Welcome Back" />;
}
