import { useState } from 'react';
import {
  CAPTION_LANGUAGE_CODES,
  CAPTION_LANGUAGES,
  LESSON_KIND_LABEL,
  LESSON_KINDS,
  type CaptionLanguage,
  type LessonKind,
} from '../../../common/course-kinds.ts';
import type { StaffLesson } from '../../../common/courses.contract.ts';
import { CAPTIONS, LESSON_DRIP_MAX_DAYS, TEXT_MAX } from '../../../common/limits.ts';
import { Input, Select, Textarea } from '../ui/field.tsx';
import type { FieldErrors, LibraryFile } from './course-forms.tsx';

// A lesson's form in the course editor: apart from the course's, which the Courses tab shows too.

/** A lesson's kind: chosen when it is added (a quiz's questions are written on its own page), then kept. */
function LessonKindField({ lesson, kind, onChange }: { lesson?: StaffLesson; kind: LessonKind; onChange: (kind: LessonKind) => void }) {
  if (lesson) return <input type="hidden" name="kind" value={lesson.kind} />;
  return (
    <Select
      compact
      label="Kind"
      name="kind"
      value={kind}
      onChange={(event) => onChange(event.currentTarget.value as LessonKind)}
      options={LESSON_KINDS.map((value) => ({ value, label: LESSON_KIND_LABEL[value] }))}
      className="sm:col-span-2"
    />
  );
}

interface CaptionRow {
  language: CaptionLanguage | '';
  fileId: string;
}

/**
 * A video's captions: a WebVTT file from the library for each language, a row each, and an empty row
 * to add one. Sent as two lists in step (captions_language, captions_file_id).
 */
export function CaptionsFields({ chosen = [], files }: { chosen?: StaffLesson['captions']; files: LibraryFile[] }) {
  const [rows, setRows] = useState<CaptionRow[]>(() => [
    ...chosen.map((each) => ({ language: each.language, fileId: each.file_id })),
    { language: '', fileId: '' },
  ]);
  const choices = [
    // What the video has now stays choosable even when it is no longer among the files listed.
    ...chosen.filter((each) => !files.some((file) => file.id === each.file_id)).map((each) => ({ id: each.file_id, filename: each.name })),
    ...files,
  ];
  const change = (at: number, row: Partial<CaptionRow>) =>
    setRows((all) => {
      const next = all.map((each, index) => (index === at ? { ...each, ...row } : each));
      // An empty row stays at the end to add another language, up to the most a lesson may have.
      const last = next.at(-1)!;
      return (last.language || last.fileId) && next.length < CAPTIONS.maxLanguagesPerLesson
        ? [...next, { language: '', fileId: '' }]
        : next;
    });
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium text-gray-700">Captions (WebVTT files from the library, folder Course Materials)</legend>
      {choices.length === 0 && <p className="mt-1 text-sm text-gray-500">Upload a .vtt file in the File Upload tab to add captions.</p>}
      {choices.length > 0 &&
        rows.map((row, index) => (
          <div key={index} className="mt-2 grid gap-2 sm:grid-cols-2">
            <Select
              compact
              label={`Captions ${index + 1}: language`}
              value={row.language}
              onChange={(event) => change(index, { language: event.currentTarget.value as CaptionLanguage | '' })}
              options={[
                { value: '', label: 'None' },
                ...CAPTION_LANGUAGE_CODES.map((code) => ({ value: code, label: CAPTION_LANGUAGES[code] })),
              ]}
            />
            <Select
              compact
              label={`Captions ${index + 1}: file`}
              value={row.fileId}
              onChange={(event) => change(index, { fileId: event.currentTarget.value })}
              options={[{ value: '', label: 'None' }, ...choices.map((file) => ({ value: file.id, label: file.filename }))]}
            />
            {row.language && row.fileId && (
              <>
                <input type="hidden" name="captions_language" value={row.language} />
                <input type="hidden" name="captions_file_id" value={row.fileId} />
              </>
            )}
          </div>
        ))}
    </fieldset>
  );
}

/** A video lesson's video (uploaded or a link) and whether everyone may watch it. */
function VideoFields({ lesson, videos, errors }: { lesson?: StaffLesson; videos: LibraryFile[]; errors: FieldErrors }) {
  const videoMissing = lesson?.video_file_id && !videos.some((file) => file.id === lesson.video_file_id);
  return (
    <>
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
    </>
  );
}

/** Its kind, title, duration, description, a video lesson's video, and attachments. */
export function LessonFields({
  lesson,
  videos,
  captions,
  attachments,
  errors = {},
}: {
  lesson?: StaffLesson;
  videos: LibraryFile[];
  /** The library's WebVTT files. */
  captions: LibraryFile[];
  attachments: LibraryFile[];
  errors?: FieldErrors;
}) {
  const [kind, setKind] = useState<LessonKind>(lesson?.kind ?? 'video');
  const chosen = new Set(lesson?.attachments.map((file) => file.id));
  // What the lesson has now stays choosable even when it is no longer among the files listed.
  const missingAttachments = (lesson?.attachments ?? []).filter((file) => !attachments.some((listed) => listed.id === file.id));
  const choices = [...missingAttachments.map((file) => ({ id: file.id, filename: file.name })), ...attachments];
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <LessonKindField lesson={lesson} kind={kind} onChange={setKind} />
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
        label={kind === 'quiz' ? 'What the quiz is about' : 'Lesson description'}
        name="description"
        defaultValue={lesson?.description}
        rows={2}
        maxLength={TEXT_MAX.lessonDescription}
        error={errors.description}
        className="sm:col-span-2"
      />
      <Input
        compact
        label="Opens days after the member starts (optional)"
        name="opens_after_days"
        type="number"
        min={1}
        max={LESSON_DRIP_MAX_DAYS}
        inputMode="numeric"
        defaultValue={lesson?.opens_after_days ?? ''}
        error={errors.opens_after_days}
      />
      <Input
        compact
        label="Or opens on (optional, midnight in the member's time)"
        name="opens_on"
        type="date"
        defaultValue={lesson?.opens_on ?? ''}
        error={errors.opens_on}
      />
      {kind === 'video' && <VideoFields lesson={lesson} videos={videos} errors={errors} />}
      {kind === 'video' && <CaptionsFields chosen={lesson?.captions} files={captions} />}
      {errors.captions && <p className="text-sm text-red-700 sm:col-span-2">{errors.captions}</p>}
      {errors.kind && <p className="text-sm text-red-700 sm:col-span-2">{errors.kind}</p>}
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
