import { PageHeader } from '../../components/ui/page-header.tsx';
import { pageMeta } from '../../lib/meta.ts';

export const meta = () => pageMeta({ title: 'RealtyPocket', description: 'Expert-led courses, coaching, and community designed for ambitious real estate professionals.' });

export default function Page() {
  return <PageHeader title="Transform Your Real Estate Career From Your Pocket" />;
}
