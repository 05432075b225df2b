import { useState } from 'react';
import { Link, redirect } from 'react-router';
import { requestServicesContext } from '#request-context';
import { BRAND_NAME } from '../../../common/brand.ts';
import type { AdminPodcastEpisode } from '../../../common/catalogue.ts';
import { postJson } from '../../lib/api-client.ts';
import { pageMeta } from '../../lib/meta.ts';
import { ADMIN_EMAIL_KEY } from './admin-login.tsx';
import { ActivityTab } from './tabs/activity-tab.tsx';
import { ContentTab } from './tabs/content-tab.tsx';
import { MembersTab } from './tabs/members-tab.tsx';
import { MessagesTab } from './tabs/messages-tab.tsx';
import { PodcastsTab } from './tabs/podcasts-tab.tsx';
import { UploadTab, type UploadedFile } from './tabs/upload-tab.tsx';
import type { Route } from './+types/admin-dashboard';

export const meta = () => pageMeta({ title: 'Admin Dashboard', description: `${BRAND_NAME} administration.` });

// Checked on the server: no staff session, no dashboard.
export async function loader({ context }: Route.LoaderArgs) {
  const services = context.get(requestServicesContext);
  if (!services.viewer.staff) throw redirect('/admin/login');
  const [session, episodes, files] = await Promise.all([
    services.api<{ email: string; storage_name: string }>('/api/admin/session'),
    services.api<AdminPodcastEpisode[]>('/api/admin/podcast/list'),
    services.api<UploadedFile[]>('/api/admin/files'),
  ]);
  if (session.status === 401) throw redirect('/admin/login');
  return {
    email: session.data.email,
    storageName: session.data.storage_name,
    episodes: episodes.ok ? episodes.data : [],
    files: files.ok ? files.data : [],
  };
}

const TABS = ['Podcasts', 'File Upload', 'Content', 'Members', 'Messages', 'Activity'] as const;
type Tab = (typeof TABS)[number];

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const [tab, setTab] = useState<Tab>('Podcasts');

  async function logout() {
    await postJson('/api/admin/logout').catch(() => null);
    window.localStorage.removeItem(ADMIN_EMAIL_KEY);
    window.localStorage.removeItem('adminToken');
    window.location.assign('/admin/login');
  }

  return (
    <div className="min-h-screen bg-gray-100">
      <header className="bg-brand-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <div>
            <h1 className="text-2xl font-extrabold">Admin Dashboard</h1>
            <p className="text-sm text-gold-100">{loaderData.email}</p>
          </div>
          <div className="flex items-center gap-3">
            <Link to="/" className="text-sm font-semibold text-gold-300 hover:text-white">
              View Site
            </Link>
            <button
              type="button"
              onClick={logout}
              className="rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-900 hover:bg-gold-100"
            >
              Logout
            </button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">
        <div role="tablist" aria-label="Admin sections" className="flex flex-wrap gap-2">
          {TABS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              onClick={() => setTab(name)}
              className={`rounded-lg px-4 py-2 text-sm font-semibold ${tab === name ? 'bg-brand-800 text-white' : 'bg-white text-gray-700 hover:bg-gray-50'}`}
            >
              {name}
            </button>
          ))}
        </div>
        <div role="tabpanel" className="mt-4 rounded-2xl bg-white p-5 shadow-sm">
          {tab === 'Podcasts' && <PodcastsTab initial={loaderData.episodes} />}
          {tab === 'File Upload' && <UploadTab initial={loaderData.files} storageName={loaderData.storageName} />}
          {tab === 'Content' && <ContentTab />}
          {tab === 'Members' && <MembersTab />}
          {tab === 'Messages' && <MessagesTab />}
          {tab === 'Activity' && <ActivityTab />}
        </div>
      </main>
    </div>
  );
}
