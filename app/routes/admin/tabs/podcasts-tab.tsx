import { useState, type FormEvent } from 'react';
import type { AdminPodcastEpisode } from '../../../../common/catalogue.ts';
import { DEFAULT_EPISODE_DURATION } from '../../../../common/limits.ts';
import { postJson } from '../../../lib/api-client.ts';
import { adminInput, adminPrimary, getJson } from './admin-ui.ts';

/** SPEC 2/4: edits, additions and deletions stay local until 'Save All Changes' sends the whole list. */
export function PodcastsTab({ initial }: { initial: AdminPodcastEpisode[] }) {
  const [episodes, setEpisodes] = useState(initial);
  const [saving, setSaving] = useState(false);

  const update = (id: string, changes: Partial<AdminPodcastEpisode>) =>
    setEpisodes((list) =>
      list.map((episode) =>
        episode.id === id
          ? // SPEC 3: audio_url is kept equal to spotify_url when edited.
            { ...episode, ...changes, ...(changes.spotify_url !== undefined ? { audio_url: changes.spotify_url } : {}) }
          : episode,
      ),
    );

  function addEpisode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const spotifyUrl = String(form.get('spotify_url') ?? '');
    setEpisodes((list) => [
      ...list,
      {
        id: String(Date.now()),
        title: String(form.get('title') ?? ''),
        spotify_url: spotifyUrl,
        audio_url: spotifyUrl,
        description: String(form.get('description') ?? ''),
        duration: DEFAULT_EPISODE_DURATION,
      },
    ]);
    event.currentTarget.reset();
  }

  async function saveAll() {
    setSaving(true);
    try {
      const result = await postJson<{ success?: boolean }>('/api/admin/podcast/update', episodes);
      if (result.ok && result.data.success) {
        window.alert('Podcasts updated successfully!');
        const reloaded = await getJson<AdminPodcastEpisode[]>('/api/admin/podcast/list');
        if (reloaded) setEpisodes(reloaded);
      }
    } catch {
      window.alert('Error updating podcasts');
    } finally {
      setSaving(false);
    }
  }

  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Manage Podcast Episodes</h2>
      <ul className="mt-4 space-y-4">
        {episodes.map((episode) => (
          <li key={episode.id} className="rounded-xl border border-gray-200 p-4" data-episode-id={episode.id}>
            <div className="grid gap-3 md:grid-cols-2">
              <label className="text-sm font-medium text-gray-700">
                Title
                <input
                  value={episode.title}
                  onChange={(event) => update(episode.id, { title: event.target.value })}
                  className={adminInput}
                />
              </label>
              <label className="text-sm font-medium text-gray-700">
                Spotify Episode URL
                <input
                  value={episode.spotify_url}
                  onChange={(event) => update(episode.id, { spotify_url: event.target.value })}
                  className={adminInput}
                />
              </label>
              <label className="text-sm font-medium text-gray-700 md:col-span-2">
                Description
                <textarea
                  rows={3}
                  value={episode.description}
                  onChange={(event) => update(episode.id, { description: event.target.value })}
                  className={adminInput}
                />
              </label>
            </div>
            <button
              type="button"
              onClick={() => setEpisodes((list) => list.filter((item) => item.id !== episode.id))}
              className="mt-3 rounded-lg border border-red-600 px-3 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50"
            >
              Delete
            </button>
          </li>
        ))}
      </ul>

      <form onSubmit={addEpisode} className="mt-6 rounded-xl bg-gray-50 p-4">
        <h3 className="font-semibold text-gray-900">Add New Episode</h3>
        <div className="mt-3 grid gap-3 md:grid-cols-2">
          <label className="text-sm font-medium text-gray-700">
            Title
            <input name="title" className={adminInput} />
          </label>
          <label className="text-sm font-medium text-gray-700">
            Spotify Episode URL
            <input name="spotify_url" className={adminInput} />
          </label>
          <label className="text-sm font-medium text-gray-700 md:col-span-2">
            Description
            <textarea name="description" rows={3} className={adminInput} />
          </label>
        </div>
        <button
          type="submit"
          className="mt-3 rounded-lg border border-brand-800 px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-white"
        >
          Add Episode
        </button>
      </form>

      <button type="button" onClick={saveAll} disabled={saving} className={`mt-6 ${adminPrimary}`}>
        {saving ? 'Saving...' : 'Save All Changes'}
      </button>
    </section>
  );
}
