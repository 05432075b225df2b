import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lessons, uploadedFiles } from '../../db/schema.ts';
import { authoredCourse, libraryFile, refusal, scheduledSession, serviceTestApp } from '../../tests/helpers/service-tests.ts';

// Who may open which stored file: a public one everyone, a members-only one the members whose tier
// reaches it (and staff); a lesson's video, a resource's download and a session's recording through
// their own checks. A visitor is asked to sign in (401), a member to upgrade (403).

const t = serviceTestApp();
const delivery = () => t.app.services.fileDelivery;
const fileIdOf = async (lessonId: string) =>
  (await t.db.select({ id: lessons.videoFileId }).from(lessons).where(eq(lessons.id, lessonId)))[0]!.id!;
const signIn = (what: string) => ({ status: 401, message: `Please sign in to open this ${what}.` });
const upgrade = (what: string) => ({
  status: 403,
  message: `Your membership does not include this ${what}. Upgrade your plan to open it.`,
});

describe('files by id and by address', () => {
  it('gives a public file to everyone, also by its address, and never a members-only one by its address', async () => {
    const publicId = await libraryFile(t, { filename: 'logo.pdf', accessTier: null });
    const membersId = await libraryFile(t, { filename: 'plan.pdf', accessTier: 'free' });
    const open = await delivery().fileById(t.asVisitor(), publicId);
    expect(open).toEqual({
      file: { storageKey: expect.stringMatching(/^test\//), contentType: 'application/pdf', filename: 'logo.pdf' },
      membersOnly: false,
      publicImage: false,
    });
    expect(await delivery().publicFile(open.file.storageKey)).toEqual({ file: open.file, membersOnly: false });
    const membersOnly = await delivery().fileById(await t.asMember('free'), membersId);
    expect(membersOnly.membersOnly).toBe(true);
    expect(await delivery().publicFile(membersOnly.file.storageKey)).toBeNull();
    expect(await delivery().publicFile('test/unknown.pdf')).toBeNull();
  });

  it('opens a Gold file to Gold members and staff, asks visitors to sign in and others to upgrade', async () => {
    const fileId = await libraryFile(t, { filename: 'scripts.pdf', accessTier: 'gold' });
    expect(await refusal(delivery().fileById(t.asVisitor(), fileId))).toEqual(signIn('file'));
    for (const tier of ['free', 'bronze', 'silver'] as const)
      expect(await refusal(delivery().fileById(await t.asMember(tier), fileId)), tier).toEqual(upgrade('file'));
    for (const viewer of [await t.asMember('gold'), await t.asStaff('editor')])
      expect((await delivery().fileById(viewer, fileId)).file.filename).toBe('scripts.pdf');
    expect(await refusal(delivery().fileById(t.asVisitor(), '00000000-0000-4000-8000-000000000000'))).toEqual({
      status: 404,
      message: 'File not found.',
    });
  });

  it('sends a public image at a width as its smallest WebP copy at least that wide, or as uploaded beyond them', async () => {
    const [image] = await t.db
      .insert(uploadedFiles)
      .values({
        filename: 'house.jpg',
        folder: 'images',
        storageKey: 'images/house.jpg',
        contentType: 'image/jpeg',
        sizeBytes: 10,
        accessTier: null,
        variants: [
          { width: 640, key: 'images/house-w640.webp' },
          { width: 320, key: 'images/house-w320.webp' },
        ],
      })
      .returning({ id: uploadedFiles.id });
    const at = (width?: number) => delivery().fileById(t.asVisitor(), image!.id, width);
    expect(await at(300)).toEqual({
      file: { storageKey: 'images/house-w320.webp', contentType: 'image/webp', filename: 'house.webp' },
      membersOnly: false,
      publicImage: true,
    });
    expect((await at(321)).file.storageKey).toBe('images/house-w640.webp');
    expect((await at(2000)).file).toEqual({ storageKey: 'images/house.jpg', contentType: 'image/jpeg', filename: 'house.jpg' });
    expect((await at()).file.storageKey).toBe('images/house.jpg');
  });
});

describe("a lesson's video, a resource's download, a session's recording", () => {
  let lessonIds: string[];
  let draftLesson: string;
  const videoFile = (filename: string, accessTier: 'gold' | 'bronze' | null) =>
    libraryFile(t, { filename, folder: 'videos', contentType: 'video/mp4', accessTier });
  beforeAll(async () => {
    const trailer = await videoFile('trailer.mp4', null);
    const video = await videoFile('lesson.mp4', 'bronze');
    const made = await authoredCourse(t, { title: 'Open Houses', tier: 'silver' }, [
      { title: 'Preview', video_file_id: trailer, free_preview: true },
      { title: 'Members', video_file_id: video },
      { title: 'Reading' },
      { title: 'Members’ preview', video_file_id: video, free_preview: true },
      { title: 'Gold cut', video_file_id: await videoFile('gold-cut.mp4', 'gold') },
    ]);
    lessonIds = made.lessons.map((lesson) => lesson.id);
    const draft = await authoredCourse(
      t,
      { title: 'Draft Course' },
      [{ title: 'Hidden', video_file_id: video, free_preview: true }],
      'draft',
    );
    draftLesson = draft.lessons[0]!.id;
  });

  it('plays a free preview to everyone, the other lessons to members whose tier reaches the course’s and staff', async () => {
    expect(await delivery().lessonVideo(t.asVisitor(), lessonIds[0]!)).toMatchObject({
      membersOnly: true,
      file: { filename: 'trailer.mp4' },
    });
    expect(await refusal(delivery().lessonVideo(t.asVisitor(), lessonIds[1]!))).toEqual(signIn('lesson video'));
    // The course's tier decides where it is stricter than the file's own (Bronze) visibility.
    expect(await refusal(delivery().lessonVideo(await t.asMember('bronze'), lessonIds[1]!))).toEqual(upgrade('lesson video'));
    for (const viewer of [await t.asMember('silver'), await t.asStaff('editor')])
      expect((await delivery().lessonVideo(viewer, lessonIds[1]!)).file.filename).toBe('lesson.mp4');
    const noVideo = { status: 404, message: 'This lesson has no video.' };
    expect(await refusal(delivery().lessonVideo(await t.asMember('gold'), lessonIds[2]!))).toEqual(noVideo);
    // A draft's lessons are not there for members, even its free preview; staff see them.
    expect(await refusal(delivery().lessonVideo(await t.asMember('gold'), draftLesson))).toEqual(noVideo);
    expect((await delivery().lessonVideo(await t.asStaff('owner'), draftLesson)).file.filename).toBe('lesson.mp4');
  });

  it('keeps the video file’s own visibility where it is stricter than the lesson’s', async () => {
    // A Bronze file as a free preview plays to Bronze members and up only.
    expect(await refusal(delivery().lessonVideo(t.asVisitor(), lessonIds[3]!))).toEqual(signIn('lesson video'));
    expect(await refusal(delivery().lessonVideo(await t.asMember('free'), lessonIds[3]!))).toEqual(upgrade('lesson video'));
    expect((await delivery().lessonVideo(await t.asMember('bronze'), lessonIds[3]!)).file.filename).toBe('lesson.mp4');
    // A Gold file in a Silver course plays to Gold members only (and staff).
    expect(await refusal(delivery().lessonVideo(await t.asMember('silver'), lessonIds[4]!))).toEqual(upgrade('lesson video'));
    for (const viewer of [await t.asMember('gold'), await t.asStaff('editor')])
      expect((await delivery().lessonVideo(viewer, lessonIds[4]!)).file.filename).toBe('gold-cut.mp4');
  });

  it('opens a lesson’s video by its id only to whom every lesson using it plays, and never as a public file', async () => {
    const trailerId = await fileIdOf(lessonIds[0]!);
    const trailer = await delivery().fileById(t.asVisitor(), trailerId);
    expect(trailer).toMatchObject({ membersOnly: true, publicImage: false });
    expect(await delivery().publicFile(trailer.file.storageKey)).toBeNull();
    // The Bronze video is a Silver lesson's, and a draft's: a Silver member may not see the draft.
    const videoId = await fileIdOf(lessonIds[1]!);
    expect(await refusal(delivery().fileById(await t.asMember('bronze'), videoId))).toEqual(upgrade('file'));
    expect(await refusal(delivery().fileById(await t.asMember('gold'), videoId))).toEqual({ status: 404, message: 'File not found.' });
    expect((await delivery().fileById(await t.asStaff('editor'), videoId)).file.filename).toBe('lesson.mp4');
  });

  it('gives a resource’s file to members whose tier reaches tier_required, and staff', async () => {
    const editor = await t.asStaff('editor');
    const fileId = await libraryFile(t, { filename: 'workbook.pdf', folder: 'ebooks', accessTier: null });
    const resource = (title: string, file: string | null) =>
      t.app.services.resourceAuthoring.create(editor, {
        title,
        description: 'Fill it in.',
        resource_type: 'workbook',
        tier_required: 'silver',
        file_id: file,
        download_url: file ? '' : 'https://example.com/workbook',
      });
    const withFile = await resource('Goal Workbook', fileId);
    const linkOnly = await resource('Linked Workbook', null);
    expect(await refusal(delivery().resourceDownload(t.asVisitor(), withFile.id))).toEqual(signIn('download'));
    expect(await refusal(delivery().resourceDownload(await t.asMember('bronze'), withFile.id))).toEqual(upgrade('download'));
    expect(await delivery().resourceDownload(await t.asMember('silver'), withFile.id)).toMatchObject({
      membersOnly: true,
      file: { filename: 'workbook.pdf' },
    });
    expect((await delivery().resourceDownload(editor, withFile.id)).file.filename).toBe('workbook.pdf');
    // By its id the public file is the resource's too: Silver's, and no longer at its public address.
    expect(await refusal(delivery().fileById(await t.asMember('bronze'), fileId))).toEqual(upgrade('file'));
    const byId = await delivery().fileById(await t.asMember('silver'), fileId);
    expect(byId).toMatchObject({ membersOnly: true, publicImage: false });
    expect(await delivery().publicFile(byId.file.storageKey)).toBeNull();
    expect(await refusal(delivery().resourceDownload(await t.asMember('gold'), linkOnly.id))).toEqual({
      status: 404,
      message: 'This resource has no download.',
    });
  });

  it('plays a session’s uploaded recording to members whose tier reaches the session’s, and staff', async () => {
    const editor = await t.asStaff('editor');
    const recording = await libraryFile(t, { filename: 'clinic.mp4', folder: 'videos', contentType: 'video/mp4' });
    const session = await scheduledSession(t, 60, { min_tier: 'gold' });
    const none = { status: 404, message: 'This session has no uploaded recording.' };
    expect(await refusal(delivery().sessionRecording(await t.asMember('gold'), session.id))).toEqual(none);
    await t.app.services.coachingAdmin.record(editor, session.id, {
      recording_file_id: recording,
      recording_url: '',
      notes: '',
      captions: [],
    });
    expect(await refusal(delivery().sessionRecording(t.asVisitor(), session.id))).toEqual(signIn('recording'));
    expect(await refusal(delivery().sessionRecording(await t.asMember('silver'), session.id))).toEqual(upgrade('recording'));
    for (const viewer of [await t.asMember('gold'), editor])
      expect(await delivery().sessionRecording(viewer, session.id)).toMatchObject({ membersOnly: true, file: { filename: 'clinic.mp4' } });
    // By its id the Bronze file is the Gold session's too.
    expect(await refusal(delivery().fileById(await t.asMember('silver'), recording))).toEqual(upgrade('file'));
    expect((await delivery().fileById(await t.asMember('gold'), recording)).file.filename).toBe('clinic.mp4');
  });
});
