import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Courses', description: 'Self-paced video courses for real estate agents and brokers: sales, marketing, negotiation, specialization and business.' });

export default function Page() {
  return <PageHeader title="Expert-Led Courses" />;
}
