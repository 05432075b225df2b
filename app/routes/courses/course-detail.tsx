import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Course', description: 'A self-paced course for real estate professionals.' });

export default function Page() {
  return <PageHeader title="Course" />;
}
