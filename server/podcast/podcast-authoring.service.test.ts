import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../common/limits.ts';
import type { AdminEpisodeList } from '../../common/podcast.contract.ts';
import { expectRefusedToEveryoneBut, lastAuditEntry, libraryFile, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// Staff's side of the podcast: the spec's whole list saved at once, or the tab's page; new episodes
// numbered in the latest season, existing ones keeping what the list leaves out.

const t = serviceTestApp();
const authoring = () => t.app.services.podcastAuthoring;

type EpisodeInput = AdminEpisodeList[number];
const episode = (id: string, extra: Partial<EpisodeInput> = {}): EpisodeInput => ({
  id,
  title: `Episode ${id}`,
  spotify_url: `https://open.spotify.com/episode/${id.replace(/[^A-Za-z0-9]/g, '')}`,
  description: 'An interview.',
  duration: '30:00',
  ...extra,
});
const today = () => new Date().toISOString().slice(0, 10);
/** An image (or not) of the library, for the episodes' artwork. */
const cover = (contentType: string, accessTier: 'gold' | null) =>
  libraryFile(t, { filename: 'cover.png', folder: 'images', contentType, accessTier });

describe('podcast authoring', () => {
  it('keeps the list and its saving to staff (editors included)', async () => {
    await expectRefusedToEveryoneBut('staff', t, (viewer) => [
      () => authoring().adminList(viewer),
      () => authoring().adminPage(viewer, {}),
      () => authoring().replaceAll(viewer, [episode('sneaked')]),
      () => authoring().savePage(viewer, [], [episode('sneaked')]),
    ]);
    expect(await authoring().adminList(await t.asStaff('editor'))).toEqual([]);
    expect(await authoring().adminPage(await t.asStaff('editor'), {})).toEqual({ items: [], next_cursor: null });
  });

  it('numbers new episodes in the latest season, dates them today, keeps audio_url equal to the Spotify link, and records the save', async () => {
    const editor = await t.asStaff('editor');
    await authoring().replaceAll(editor, [episode('first', { season: 2, episode: 7, published_at: '2026-01-10' })]);
    await authoring().replaceAll(editor, [
      episode('first'),
      episode('second', { published_at: '2026-02-10' }),
      episode('third', { published_at: '2026-03-10' }),
    ]);
    const list = await authoring().adminList(editor);
    expect(list.map((each) => [each.id, each.season, each.episode, each.published_at])).toEqual([
      ['third', 2, 9, '2026-03-10'],
      ['second', 2, 8, '2026-02-10'],
      ['first', 2, 7, '2026-01-10'],
    ]);
    expect(list[0]).toMatchObject({
      audio_url: 'https://open.spotify.com/episode/third',
      spotify_url: 'https://open.spotify.com/episode/third',
      thumbnail: '/api/podcast/episodes/third/artwork.svg',
      thumbnail_file_id: null,
    });
    expect(await lastAuditEntry(t, { action: 'podcast.update' })).toMatchObject({
      actorEmail: editor.staff.email,
      target: 'podcast episodes',
    });

    // A new episode left undated is published today; one left out of the list is deleted.
    await authoring().replaceAll(editor, [episode('third'), episode('fourth')]);
    const after = await authoring().adminList(editor);
    expect(after.map((each) => each.id)).toEqual(['fourth', 'third']);
    expect(after[0]).toMatchObject({ season: 2, episode: 10, published_at: today() });
    // Public listeners hear the same list, newest first.
    expect((await t.app.services.podcast.list()).map((each) => each.id)).toEqual(['fourth', 'third']);
  });

  it('takes as artwork only an image of the library that everyone may open', async () => {
    const owner = await t.asStaff('owner');
    const cases: [string, string][] = [
      [randomUUID(), 'The artwork is not in the file library.'],
      [await cover('application/pdf', null), 'The artwork must be an image.'],
      [await cover('image/png', 'gold'), 'The artwork must be an image visible to everyone (public).'],
    ];
    for (const [fileId, message] of cases)
      expect(await refusal(authoring().replaceAll(owner, [episode('art', { thumbnail_file_id: fileId })]))).toEqual({
        status: 400,
        message,
      });
    const image = await cover('image/png', null);
    await authoring().replaceAll(owner, [episode('art', { thumbnail_file_id: image })]);
    expect(await authoring().adminList(owner)).toEqual([
      expect.objectContaining({ id: 'art', thumbnail: `/api/files/${image}`, thumbnail_file_id: image }),
    ]);
  });
});

describe('the Podcasts tab, a page at a time', () => {
  /** Episodes a-001… dated a day apart from 2024-01-01, the last one newest. */
  const stored = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      episode(`a-${String(index + 1).padStart(3, '0')}`, {
        published_at: new Date(Date.UTC(2024, 0, 1 + index)).toISOString().slice(0, 10),
        season: 1,
        episode: index + 1,
      }),
    );

  it('pages the episodes newest first, fifty at a time, after the last shown', async () => {
    const editor = await t.asStaff('editor');
    const count = PAGE_SIZE.staffList + 5;
    await authoring().replaceAll(editor, stored(count));
    const first = await authoring().adminPage(editor, {});
    expect(first.items).toHaveLength(PAGE_SIZE.staffList);
    expect(first.items[0]).toMatchObject({ id: `a-${String(count).padStart(3, '0')}`, season: 1, episode: count });
    const second = await authoring().adminPage(editor, { before: first.next_cursor! });
    expect(second.next_cursor).toBeNull();
    expect([...first.items, ...second.items].map((each) => each.id)).toEqual((await authoring().adminList(editor)).map((each) => each.id));
  });

  it('saves the page shown: updates and adds its episodes, deletes only those of the page left out, never another page’s', async () => {
    const editor = await t.asStaff('editor');
    const count = PAGE_SIZE.staffList + 5;
    await authoring().replaceAll(editor, stored(count));
    const second = await authoring().adminPage(editor, { before: (await authoring().adminPage(editor, {})).next_cursor! });
    const pageIds = second.items.map((each) => each.id);
    expect(pageIds).toEqual(['a-005', 'a-004', 'a-003', 'a-002', 'a-001']);

    // 'a-004' edited, 'a-002' deleted, one episode added; the first page is not sent at all.
    const kept = second.items
      .filter((each) => each.id !== 'a-002')
      .map((each) => (each.id === 'a-004' ? { ...each, title: 'Renamed' } : each));
    await authoring().savePage(editor, pageIds, [...kept, episode('added', { published_at: '2023-06-01' })]);

    const after = await authoring().adminList(editor);
    expect(after).toHaveLength(count);
    expect(after.map((each) => each.id)).not.toContain('a-002');
    expect(after.find((each) => each.id === 'a-004')).toMatchObject({ title: 'Renamed', season: 1, episode: 4 });
    // The new one goes into the latest season after the highest number of every page.
    expect(after.find((each) => each.id === 'added')).toMatchObject({ season: 1, episode: count + 1, published_at: '2023-06-01' });
    for (let index = 6; index <= count; index++) expect(after.map((each) => each.id)).toContain(`a-${String(index).padStart(3, '0')}`);
    expect(await lastAuditEntry(t, { action: 'podcast.update' })).toMatchObject({
      actorEmail: editor.staff.email,
      target: 'podcast episodes',
    });

    // A page sent empty deletes that page's episodes, and nothing else.
    await authoring().savePage(editor, ['a-001', 'a-003'], []);
    expect(await authoring().adminList(editor)).toHaveLength(count - 2);
    expect((await authoring().adminList(editor)).map((each) => each.id)).not.toContain('a-001');
  });
});
