import { COURSE_CATEGORIES, COURSE_LEVELS, type StaffCourse, type StaffLesson } from '../../../common/courses.contract.ts';
import type { UploadedFileList } from '../../../common/files.contract.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../../common/time-zones.ts';
import { TIER_LABEL, TIERS } from '../../../common/tiers.ts';
import { Input, Select, Textarea } from '../ui/field.tsx';
import type { z } from 'zod';
import { TEXT_MAX } from '../../../common/limits.ts';

type LibraryFile = z.infer<typeof UploadedFileList>[number];
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The fields of a course or lesson form as the contract reads them: checkboxes as true or false,
 * a list of chosen files, an empty choice as null. Unknown fields are left to the contract.
 */
export function formValues(
  form: FormData,
  { checkboxes = [], lists = [], nullable = [] }: { checkboxes?: string[]; lists?: string[]; nullable?: string[] },
) {
  const values: Record<string, unknown> = {};
  for (const [key, value] of form) if (typeof value === 'string' && !lists.includes(key)) values[key] = value;
  for (const name of checkboxes) values[name] = form.get(name) === 'on';
  for (const name of lists) values[name] = form.getAll(name).filter((value): value is string => typeof value === 'string' && value !== '');
  for (const name of nullable) if (values[name] === '') values[name] = null;
  return values;
}

/** The first message of a refused form, per field. */
export type FieldErrors = Record<string, string>;

/** The title and description every authored item has, across the whole width of its form. */
export function TitleAndDescription({
  values,
  max,
  errors,
}: {
  values?: { title: string; description: string };
  /** The longest title and description (common/limits.ts). */
  max: { title: number; description: number };
  errors: FieldErrors;
}) {
  return (
    <>
      <Input
        compact
        label="Title"
        name="title"
        defaultValue={values?.title}
        required
        maxLength={max.title}
        error={errors.title}
        className="sm:col-span-2"
      />
      <Textarea
        compact
        label="Description"
        name="description"
        defaultValue={values?.description}
        required
        rows={3}
        maxLength={max.description}
        error={errors.description}
        className="sm:col-span-2"
      />
    </>
  );
}

/** Title, description, category, tier, instructor, level, duration, certificate and thumbnail. */
export function CourseFields({ course, images, errors = {} }: { course?: StaffCourse; images: LibraryFile[]; errors?: FieldErrors }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TitleAndDescription values={course} max={{ title: TEXT_MAX.courseTitle, description: TEXT_MAX.courseDescription }} errors={errors} />
      <Select
        compact
        label="Category"
        name="category"
        defaultValue={course?.category ?? 'sales'}
        options={COURSE_CATEGORIES.map((value) => ({ value, label: capitalised(value) }))}
        error={errors.category}
      />
      <Select
        compact
        label="Tier"
        name="tier"
        defaultValue={course?.early_access?.opens_to ?? course?.tier ?? 'free'}
        options={TIERS.map((value) => ({ value, label: TIER_LABEL[value] }))}
        error={errors.tier}
      />
      <Input
        compact
        label="Gold members first, until (optional)"
        name="early_access_until"
        type="date"
        defaultValue={course?.early_access ? localDateOf(new Date(course.early_access.opens_at), DEFAULT_TIME_ZONE) : ''}
        error={errors.early_access_until}
      />
      <Input
        compact
        label="Instructor"
        name="instructor"
        defaultValue={course?.instructor}
        required
        maxLength={TEXT_MAX.instructor}
        error={errors.instructor}
      />
      <Select
        compact
        label="Level"
        name="level"
        defaultValue={course?.level ?? 'beginner'}
        options={COURSE_LEVELS.map((value) => ({ value, label: capitalised(value) }))}
        error={errors.level}
      />
      <Input
        compact
        label="Duration"
        name="duration"
        placeholder="1h 30m"
        defaultValue={course?.duration}
        required
        maxLength={TEXT_MAX.duration}
        error={errors.duration}
      />
      <Select
        compact
        label="Thumbnail"
        name="thumbnail_file_id"
        defaultValue={course?.thumbnail_file_id ?? ''}
        options={[
          { value: '', label: 'Generated artwork' },
          // The current image stays selectable even when it is no longer among the files listed.
          ...(course?.thumbnail_file_id && !images.some((file) => file.id === course.thumbnail_file_id)
            ? [{ value: course.thumbnail_file_id, label: 'Current image' }]
            : []),
          ...images.map((file) => ({ value: file.id, label: file.filename })),
        ]}
        error={errors.thumbnail_file_id}
      />
      <label className="flex items-center gap-2 text-sm font-medium text-gray-700 sm:col-span-2">
        <input type="checkbox" name="certificate" defaultChecked={course?.certificate ?? true} className="h-4 w-4" />
        Certificate included (finishing every lesson issues one)
      </label>
      <p className="text-xs text-gray-500 sm:col-span-2">
        Thumbnails are public images from the File Upload tab (folder Images, visible to everyone).
      </p>
    </div>
  );
}

/** Title, duration, description, free preview, video (uploaded or a link) and attachments. */
export function LessonFields({
  lesson,
  videos,
  attachments,
  errors = {},
}: {
  lesson?: StaffLesson;
  videos: LibraryFile[];
  attachments: LibraryFile[];
  errors?: FieldErrors;
}) {
  const chosen = new Set(lesson?.attachments.map((file) => file.id));
  // What the lesson has now stays choosable even when it is no longer among the files listed.
  const missingAttachments = (lesson?.attachments ?? []).filter((file) => !attachments.some((listed) => listed.id === file.id));
  const choices = [...missingAttachments.map((file) => ({ id: file.id, filename: file.name })), ...attachments];
  const videoMissing = lesson?.video_file_id && !videos.some((file) => file.id === lesson.video_file_id);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Input
        compact
        label="Lesson title"
        name="title"
        defaultValue={lesson?.title}
        required
        maxLength={TEXT_MAX.courseTitle}
        error={errors.title}
      />
      <Input
        compact
        label="Lesson duration"
        name="duration"
        placeholder="12:30"
        defaultValue={lesson?.duration}
        required
        maxLength={TEXT_MAX.duration}
        error={errors.duration}
      />
      <Textarea
        compact
        label="Lesson description"
        name="description"
        defaultValue={lesson?.description}
        rows={2}
        maxLength={TEXT_MAX.lessonDescription}
        error={errors.description}
        className="sm:col-span-2"
      />
      <Select
        compact
        label="Uploaded video"
        name="video_file_id"
        defaultValue={lesson?.video_file_id ?? ''}
        options={[
          { value: '', label: 'None' },
          ...(videoMissing ? [{ value: lesson.video_file_id!, label: 'Current video' }] : []),
          ...videos.map((file) => ({ value: file.id, label: file.filename })),
        ]}
        error={errors.video_file_id}
      />
      <Input
        compact
        label="Or a video link (https://)"
        name="video_url"
        type="url"
        defaultValue={lesson?.video_url}
        maxLength={TEXT_MAX.link}
        error={errors.video_url}
      />
      <label className="flex items-center gap-2 text-sm font-medium text-gray-700 sm:col-span-2">
        <input type="checkbox" name="free_preview" defaultChecked={lesson?.free_preview ?? false} className="h-4 w-4" />
        Free preview (everyone may watch its video)
      </label>
      {choices.length > 0 && (
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-gray-700">Attachments</legend>
          <div className="mt-1 flex max-h-40 flex-col gap-1 overflow-y-auto rounded-lg border border-gray-200 p-2">
            {choices.map((file) => (
              <label key={file.id} className="flex items-center gap-2 text-sm text-gray-700">
                <input
                  type="checkbox"
                  name="attachment_file_ids"
                  value={file.id}
                  defaultChecked={chosen.has(file.id)}
                  className="h-4 w-4"
                />
                <span className="break-all">{file.filename}</span>
              </label>
            ))}
          </div>
          {errors.attachment_file_ids && <p className="mt-1 text-sm text-red-700">{errors.attachment_file_ids}</p>}
        </fieldset>
      )}
    </div>
  );
}

/** The library's files sorted for the pickers: public images, videos, and everything else for attachments. */
export function libraryChoices(files: LibraryFile[]) {
  return {
    images: files.filter((file) => file.content_type.startsWith('image/') && file.visibility === 'public'),
    videos: files.filter((file) => file.content_type.startsWith('video/')),
    attachments: files.filter((file) => !file.content_type.startsWith('video/')),
  };
}
