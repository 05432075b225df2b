import { useState, type FormEvent } from 'react';
import { useFetcher } from 'react-router';
import { DEFAULT_EPISODE_DURATION } from '../../../../common/limits.ts';
import {
  AdminEpisodePageForm,
  EPISODE_TITLE_REQUIRED,
  SPOTIFY_EPISODE_URL_INVALID,
  type AdminPodcastEpisode,
} from '../../../../common/podcast.contract.ts';
import { spotifyEpisodeId } from '../../../../common/spotify.ts';
import { libraryChoices } from '../../../components/admin/course-forms.tsx';
import { useActionAlerts } from '../../../components/admin/use-action-alerts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Select, Textarea } from '../../../components/ui/field.tsx';
import { Pager } from '../../../components/ui/pager.tsx';
import { attempt, invalid, orRequestFailed, parseForm, unlessRequestFailed } from '../../../lib/forms.ts';
import { listPageOf, staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/podcasts-tab';

// One page of episodes at a time, newest first (`?before=`, docs/decisions/013).
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const [page, files] = await Promise.all([
    services.podcastAuthoring.adminPage(viewer, listPageOf(request)),
    services.files.choices(viewer),
  ]);
  return { episodes: page.items, next: page.next_cursor, images: libraryChoices(files).images };
}

// SPEC 7: 'Save All Changes' sends the episodes of the page shown, and the ids it showed: episodes
// of the page left out are deleted, those of other pages never.
export async function action({ request, context }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const form = await parseForm(AdminEpisodePageForm, request);
  if (!form.ok) return invalid(form);
  const saved = await attempt(() => services.podcastAuthoring.savePage(viewer, form.data.page_ids, form.data.episodes));
  if (!saved.ok) return saved.refusal;
  return { ok: true as const };
}

// In the browser, a request that fails on the way still gets its alert (SPEC 8).
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => orRequestFailed(() => serverAction());
export const shouldRevalidate = unlessRequestFailed;

const ALERTS = { success: () => 'Podcasts updated successfully!', networkError: 'Error updating podcasts' };

type SaveFetcher = ReturnType<typeof useFetcher<typeof clientAction>>;
/** An episode being edited: a new one has no number, date or artwork until the server gives them. */
type EditedEpisode = Omit<AdminPodcastEpisode, 'season' | 'episode' | 'published_at' | 'thumbnail' | 'thumbnail_file_id'> &
  Partial<Pick<AdminPodcastEpisode, 'season' | 'episode' | 'published_at' | 'thumbnail' | 'thumbnail_file_id'>>;
type LibraryImage = Awaited<ReturnType<typeof loader>>['images'][number];

/** Why a new episode cannot be added, or null. */
function episodeProblem(title: string, spotifyUrl: string): string | null {
  if (title.trim() === '') return EPISODE_TITLE_REQUIRED;
  if (spotifyUrl.trim() !== '' && !spotifyEpisodeId(spotifyUrl)) return SPOTIFY_EPISODE_URL_INVALID;
  return null;
}

/** Season, number, published date and artwork of a stored episode (a new one gets them on save). */
function EpisodeDetails({
  episode,
  images,
  update,
}: {
  episode: EditedEpisode;
  images: LibraryImage[];
  update: (changes: Partial<EditedEpisode>) => void;
}) {
  if (episode.season === undefined)
    return <p className="text-xs text-gray-500 md:col-span-2">New: numbered, dated and given artwork when saved.</p>;
  const number = (value: string) => (value === '' ? undefined : Number(value));
  return (
    <>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:col-span-2">
        <Input
          compact
          label="Season"
          type="number"
          min={1}
          value={episode.season ?? ''}
          onChange={(event) => update({ season: number(event.target.value) })}
        />
        <Input
          compact
          label="Episode"
          type="number"
          min={1}
          value={episode.episode ?? ''}
          onChange={(event) => update({ episode: number(event.target.value) })}
        />
        <Input
          compact
          label="Published"
          className="col-span-2 sm:col-span-1"
          type="date"
          value={episode.published_at ?? ''}
          onChange={(event) => update({ published_at: event.target.value })}
        />
      </div>
      <div className="flex items-end gap-3 md:col-span-2">
        {episode.thumbnail && <img src={episode.thumbnail} alt="" width={96} height={54} className="h-[54px] w-24 rounded object-cover" />}
        <Select
          compact
          label="Artwork"
          className="flex-1"
          value={episode.thumbnail_file_id ?? ''}
          onChange={(event) => update({ thumbnail_file_id: event.target.value || null })}
          options={[{ value: '', label: 'Generated artwork' }, ...images.map((file) => ({ value: file.id, label: file.filename }))]}
        />
      </div>
    </>
  );
}

/** SPEC 2/4: edits, additions and deletions stay local until 'Save All Changes' sends the page. */
function PodcastEditor({
  stored,
  next,
  images,
  fetcher,
}: {
  stored: AdminPodcastEpisode[];
  /** The cursor of the next page of episodes, or null on the last. */
  next: string | null;
  images: LibraryImage[];
  fetcher: SaveFetcher;
}) {
  const [episodes, setEpisodes] = useState<EditedEpisode[]>(stored);
  const [addProblem, setAddProblem] = useState<string | null>(null);
  const saving = fetcher.state !== 'idle';
  const refused = fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;

  const update = (id: string, changes: Partial<EditedEpisode>) =>
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
    const problem = episodeProblem(String(form.get('title') ?? ''), spotifyUrl);
    setAddProblem(problem);
    if (problem) return;
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

  function saveAll() {
    void fetcher.submit(
      { episodes: JSON.stringify(episodes), page_ids: JSON.stringify(stored.map((episode) => episode.id)) },
      { method: 'post' },
    );
  }

  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Manage Podcast Episodes</h2>
      <ul className="mt-4 space-y-4">
        {episodes.map((episode) => (
          <li key={episode.id} className="rounded-xl border border-gray-200 p-4" data-episode-id={episode.id}>
            <div className="grid gap-3 md:grid-cols-2">
              <Input compact label="Title" value={episode.title} onChange={(event) => update(episode.id, { title: event.target.value })} />
              <Input
                compact
                label="Spotify Episode URL"
                value={episode.spotify_url}
                onChange={(event) => update(episode.id, { spotify_url: event.target.value })}
              />
              <Textarea
                compact
                label="Description"
                rows={3}
                className="md:col-span-2"
                value={episode.description}
                onChange={(event) => update(episode.id, { description: event.target.value })}
              />
              <EpisodeDetails episode={episode} images={images} update={(changes) => update(episode.id, changes)} />
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
      {/* Unsaved changes stay on their page: save them before moving to another. */}
      <Pager param="before" next={next} label="Older episodes" />

      <form onSubmit={addEpisode} className="mt-6 rounded-xl bg-gray-50 p-4">
        <h3 className="font-semibold text-gray-900">Add New Episode</h3>
        <div className="mt-3 grid gap-3 md:grid-cols-2">
          <Input compact label="Title" name="title" />
          <Input compact label="Spotify Episode URL" name="spotify_url" />
          <Textarea compact label="Description" name="description" rows={3} className="md:col-span-2" />
        </div>
        {addProblem && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {addProblem}
          </p>
        )}
        <Button type="submit" variant="outline" size="sm" className="mt-3">
          Add Episode
        </Button>
      </form>

      {refused && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Not saved: {refused}
        </p>
      )}
      <Button onClick={saveAll} disabled={saving} className="mt-6">
        {saving ? 'Saving...' : 'Save All Changes'}
      </Button>
    </section>
  );
}

export default function PodcastsTab({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof clientAction>();
  useActionAlerts(fetcher, ALERTS);
  // SPEC 4: after a successful save the list is reloaded: the loader runs again and the editor
  // starts over from the stored list.
  return (
    <PodcastEditor
      key={JSON.stringify(loaderData.episodes)}
      stored={loaderData.episodes}
      next={loaderData.next}
      images={loaderData.images}
      fetcher={fetcher}
    />
  );
}
