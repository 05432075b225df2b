import { beforeAll, describe, expect, it } from 'vitest';
import { COURSE_NOT_FOUND } from '../../common/courses.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import { authoredCourse, libraryFile, refusal, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// The catalogue as members and visitors see it: published courses for everyone, drafts for staff,
// an archived course for the members who took it; lessons' videos and attachments only where the
// viewer's tier reaches (a free preview's video for everyone).

const t = serviceTestApp();
const courses = () => t.app.services.courses;
const NOT_FOUND = { status: 404, message: COURSE_NOT_FOUND };
let video: string;
let bronzeHandout: string;
let goldHandout: string;

beforeAll(async () => {
  video = await libraryFile(t, { filename: 'walkthrough.mp4', folder: 'videos', contentType: 'video/mp4' });
  bronzeHandout = await libraryFile(t, { filename: 'checklist.pdf', accessTier: 'bronze' });
  goldHandout = await libraryFile(t, { filename: 'scripts.pdf', accessTier: 'gold' });
  await authoredCourse(t, { title: 'Showing Homes', tier: 'bronze', category: 'sales' }, [
    { title: 'Welcome', free_preview: true, video_url: 'https://vimeo.com/76979871' },
    { title: 'The Walkthrough', video_file_id: video, attachment_file_ids: [bronzeHandout, goldHandout] },
    { title: 'Reading Notes' },
  ]);
  await authoredCourse(t, { title: 'Work In Progress' }, [{ title: 'Soon' }], 'draft');
});

describe('the catalogue', () => {
  it('lists only published courses, in the public shape', async () => {
    const listed = await courses().list();
    expect(listed.map((course) => course.id)).toEqual(['showing-homes']);
    expect(listed[0]).toEqual({
      id: 'showing-homes',
      title: 'Showing Homes',
      description: 'Showing Homes, step by step.',
      category: 'sales',
      tier: 'bronze',
      thumbnail: '/api/courses/showing-homes/artwork.svg',
      duration: '1h',
      lesson_count: 3,
      instructor: 'Dana Whitfield',
      level: 'beginner',
      certificate: true,
      early_access: null,
      prerequisite: null,
    });
  });

  it('shows a draft to staff only, and the same 404 to everyone else', async () => {
    for (const viewer of [t.asVisitor(), await t.asMember('gold')]) {
      expect(await courses().find(viewer, 'work-in-progress')).toBeNull();
      expect(await refusal(courses().get(viewer, 'work-in-progress'))).toEqual(NOT_FOUND);
      expect(await refusal(courses().lessons(viewer, 'work-in-progress'))).toEqual(NOT_FOUND);
    }
    const editor = await t.asStaff('editor');
    expect(await courses().get(editor, 'work-in-progress')).toMatchObject({ id: 'work-in-progress', lesson_count: 1 });
    expect(await refusal(courses().get(editor, 'no-such-course'))).toEqual(NOT_FOUND);
  });

  it('keeps an archived course for the members who took it (and staff), and from everyone else', async () => {
    const made = await authoredCourse(t, { title: 'Retired Course' }, [{ title: 'Only' }]);
    const learner = await t.asMember('free');
    await t.app.services.learning.enrol(learner, made.course.id);
    await t.app.services.courseAuthoring.setStatus(await t.asStaff('editor'), made.course.id, 'archived');

    expect(await courses().get(learner, made.course.id)).toMatchObject({ id: 'retired-course' });
    expect(await courses().get(await t.asStaff('owner'), made.course.id)).toMatchObject({ id: 'retired-course' });
    for (const viewer of [t.asVisitor(), await t.asMember('gold')]) expect(await courses().find(viewer, made.course.id)).toBeNull();
    expect((await courses().list()).map((course) => course.id)).not.toContain('retired-course');
  });
});

describe("a course's lessons", () => {
  /** What the viewer gets of each lesson: its video address, and each attachment's name and address. */
  const opened = async (viewer: Viewer) =>
    (await courses().lessons(viewer, 'showing-homes')).map((lesson) => ({
      title: lesson.title,
      video: lesson.video_url,
      has_video: lesson.has_video,
      attachments: lesson.attachments.map((each) => `${each.name}: ${each.url ?? 'locked'}`),
    }));

  it('gives visitors and members below the course’s tier only the free preview’s video, and no attachment', async () => {
    const locked = [
      { title: 'Welcome', video: 'https://vimeo.com/76979871', has_video: true, attachments: [] },
      { title: 'The Walkthrough', video: null, has_video: true, attachments: ['checklist.pdf: locked', 'scripts.pdf: locked'] },
      { title: 'Reading Notes', video: null, has_video: false, attachments: [] },
    ];
    expect(await opened(t.asVisitor())).toEqual(locked);
    expect(await opened(await t.asMember('free'))).toEqual(locked);
  });

  it('opens the videos to members whose tier reaches the course’s, and each attachment as its own visibility allows', async () => {
    const lessons = await courses().lessons(await t.asMember('bronze'), 'showing-homes');
    const walkthrough = lessons[1]!;
    expect(walkthrough.video_url).toBe(`/api/lessons/${walkthrough.id}/video`);
    expect(walkthrough.attachments).toEqual([
      { name: 'checklist.pdf', url: `/api/files/${bronzeHandout}` },
      { name: 'scripts.pdf', url: null },
    ]);
    for (const viewer of [await t.asMember('gold'), await t.asStaff('editor')])
      expect((await opened(viewer))[1]!.attachments).toEqual([
        `checklist.pdf: /api/files/${bronzeHandout}`,
        `scripts.pdf: /api/files/${goldHandout}`,
      ]);
  });
});
