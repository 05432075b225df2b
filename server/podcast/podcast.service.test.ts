import { describe, expect, it } from 'vitest';
import { refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// The podcast as everyone hears it: newest first, a page at a time after the last episode shown.

const t = serviceTestApp();
const podcast = () => t.app.services.podcast;
const BROKEN_LINK = { status: 400, message: 'This page link is not valid (it may be out of date). Start again from the first page.' };

/** Staff save this many episodes, one a month from January 2025 (the last one newest). */
async function episodes(count: number) {
  const list = Array.from({ length: count }, (_, index) => ({
    id: `ep-${index + 1}`,
    title: `Market talk ${index + 1}`,
    spotify_url: '',
    description: 'Agents on the market.',
    duration: '40:00',
    published_at: `${2025 + Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-15`,
  }));
  await t.app.services.podcastAuthoring.replaceAll(await t.asStaff('editor'), list);
}

describe('the podcast', () => {
  it('has one empty page before any episode', async () => {
    expect(await podcast().list()).toEqual([]);
    expect(await podcast().page({})).toEqual({ episodes: [], next_cursor: null, total: 0 });
    expect(await podcast().newest({})).toEqual({ items: [], next_cursor: null });
  });

  it('lists the episodes newest first in the public shape, six a page, each page after the last one shown', async () => {
    await episodes(8);
    const list = await podcast().list();
    expect(list.map((each) => each.id)).toEqual(['ep-8', 'ep-7', 'ep-6', 'ep-5', 'ep-4', 'ep-3', 'ep-2', 'ep-1']);
    expect(list[0]).toEqual({
      id: 'ep-8',
      title: 'Market talk 8',
      description: 'Agents on the market.',
      thumbnail: '/api/podcast/episodes/ep-8/artwork.svg',
      season: 1,
      episode: 8,
      duration: '40:00',
      spotify_url: '',
      published_at: '2025-08-15T12:00:00.000Z',
    });
    // Staff matters (the audio address, the artwork's file) stay out of the public shape.
    expect(Object.keys(list[0]!)).not.toContain('audio_url');

    const first = await podcast().page({});
    expect(first.episodes.map((each) => each.id)).toEqual(['ep-8', 'ep-7', 'ep-6', 'ep-5', 'ep-4', 'ep-3']);
    expect(first).toMatchObject({ total: 8, next_cursor: expect.any(String) });
    const second = await podcast().page({ before: first.next_cursor! });
    expect(second).toMatchObject({ total: 8, next_cursor: null });
    expect(second.episodes.map((each) => each.id)).toEqual(['ep-2', 'ep-1']);
    expect(await refusal(podcast().page({ before: 'not-a-cursor' }))).toEqual(BROKEN_LINK);
  });

  it('finds an episode by id, and nothing for an unknown one', async () => {
    expect(await podcast().find('ep-3')).toMatchObject({ id: 'ep-3', title: 'Market talk 3' });
    expect(await podcast().find('ep-99')).toBeNull();
  });
});
