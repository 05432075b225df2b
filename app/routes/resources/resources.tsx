import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'Resources & Tools', description: 'Daily tips, eBooks, workbooks, articles and market reports for real estate professionals.' });

export default function Page() {
  return <PageHeader title="Resources &amp; Tools" />;
}
