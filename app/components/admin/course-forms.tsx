import { COURSE_CATEGORIES, COURSE_LEVELS } from '../../../common/course-kinds.ts';
import type { StaffCourse } from '../../../common/courses.contract.ts';
import type { UploadedFileList } from '../../../common/files.contract.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../../common/time-zones.ts';
import { TIER_LABEL, TIERS } from '../../../common/tiers.ts';
import { Input, Select, Textarea } from '../ui/field.tsx';
import type { z } from 'zod';
import { TEXT_MAX } from '../../../common/limits.ts';

export type LibraryFile = z.infer<typeof UploadedFileList>[number];
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

/**
 * A form's captions (the CaptionsFields' two lists in step, a language and a file each) as the
 * contract reads them: `captions`, a list of { language, file_id }.
 */
export function withCaptions(values: Record<string, unknown>) {
  const {
    captions_language: languages = [],
    captions_file_id: files = [],
    ...rest
  } = values as {
    captions_language?: string[];
    captions_file_id?: string[];
  };
  return { ...rest, captions: languages.map((language, index) => ({ language, file_id: files[index] })) };
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
export function CourseFields({
  course,
  images,
  otherCourses,
  errors = {},
}: {
  course?: StaffCourse;
  images: LibraryFile[];
  /** The courses this one may build on (published ones), when its prerequisite is chosen here. */
  otherCourses?: { id: string; title: string }[];
  errors?: FieldErrors;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {otherCourses && (
        <Select
          compact
          label="Complete first (optional)"
          name="prerequisite_course_id"
          defaultValue={course?.prerequisite_course_id ?? ''}
          options={[{ value: '', label: 'No other course' }, ...otherCourses.map((other) => ({ value: other.id, label: other.title }))]}
          error={errors.prerequisite_course_id}
        />
      )}
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
        Certificate included (finishing every lesson issues one; a quiz is finished by passing it)
      </label>
      <label className="flex items-center gap-2 text-sm font-medium text-gray-700 sm:col-span-2">
        <input
          type="checkbox"
          name="certificate_shows_score"
          defaultChecked={course?.certificate_shows_score ?? false}
          className="h-4 w-4"
        />
        The certificate states the quiz score (the member's best pass of each quiz, averaged)
      </label>
      <p className="text-xs text-gray-500 sm:col-span-2">
        Thumbnails are public images from the File Upload tab (folder Images, visible to everyone).
      </p>
    </div>
  );
}

/** The library's files sorted for the pickers: public images, videos, and everything else for attachments. */
export function libraryChoices(files: LibraryFile[]) {
  return {
    images: files.filter((file) => file.content_type.startsWith('image/') && file.visibility === 'public'),
    videos: files.filter((file) => file.content_type.startsWith('video/')),
    captions: files.filter((file) => file.content_type.startsWith('text/vtt')),
    attachments: files.filter((file) => !file.content_type.startsWith('video/')),
  };
}
