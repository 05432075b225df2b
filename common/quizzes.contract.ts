import { z } from 'zod';
import { optionalText, requiredText, uuidParam } from './fields.ts';
import { QUIZ } from './limits.ts';
import { CourseProgress } from './learning.contract.ts';
import type { Viewer } from './viewer.ts';

// Quizzes (issue: 'Learning that counts'): a lesson of the kind 'quiz' asks questions of one answer,
// of several answers, or true or false. The member starts a try, answers, and the server scores it;
// the right answers reach the browser only with the scored try. Passing it completes the lesson, so
// a course's certificate waits until every quiz of it is passed.

export const QUESTION_KINDS = ['single', 'multiple', 'true_false'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const QUESTION_KIND_LABEL: Record<QuestionKind, string> = {
  single: 'One answer',
  multiple: 'Several answers',
  true_false: 'True or false',
};
/** A true-or-false question's two answers, in this order. */
export const TRUE_FALSE_OPTIONS = ['True', 'False'] as const;

export const QUIZ_NOT_FOUND = 'This lesson has no quiz.';
export const ATTEMPT_NOT_FOUND = 'Quiz try not found';
export const NO_ATTEMPTS_LEFT = 'You have used every try this quiz allows.';
export const ALREADY_PASSED = 'You have passed this quiz.';
export const ALREADY_SUBMITTED = 'These answers were already sent and scored.';
export const QUIZ_IS_COMPLETED_BY_PASSING = 'A quiz is completed by passing it.';
export const waitUntil = (when: string) => `You can try again at ${when}.`;

// ---- Staff ----------------------------------------------------------------------------------

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

const QuizOptionInput = z.object({
  /** An answer kept from before (its results stay with it); none for a new one. */
  id: uuidParam('Answer').optional(),
  text: requiredText('Answer', QUIZ.optionMax),
  correct: z.boolean({ error: 'Say whether the answer is right (true or false)' }),
});

const QuizQuestionInput = z
  .object({
    /** A question kept from before (its results stay with it); none for a new one. */
    id: uuidParam('Question').optional(),
    kind: z.enum(QUESTION_KINDS, { error: 'A question is of one answer, several answers, or true or false' }),
    prompt: requiredText('Question', QUIZ.promptMax, { multiline: true }),
    explanation: optionalText('Explanation', QUIZ.explanationMax, { multiline: true }).default(''),
    options: z
      .array(QuizOptionInput, { error: 'Give the answers as a list' })
      .min(2, 'A question needs at least two answers')
      .max(QUIZ.maxOptions, `A question can have at most ${QUIZ.maxOptions} answers`),
  })
  .superRefine((question, context) => {
    const right = question.options.filter((option) => option.correct).length;
    const problem =
      question.kind === 'true_false' &&
      (question.options.length !== 2 || question.options.some((option, index) => option.text !== TRUE_FALSE_OPTIONS[index]))
        ? 'A true-or-false question has the answers True and False'
        : question.kind !== 'multiple' && right !== 1
          ? 'Mark exactly one answer as right'
          : question.kind === 'multiple' && right === 0
            ? 'Mark at least one answer as right'
            : new Set(question.options.map((option) => option.text.toLowerCase())).size !== question.options.length
              ? 'Give each answer once'
              : null;
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['options'] });
  });

export const QuizInput = z.object({
  /** The share of questions answered right that passes, in percent. */
  pass_percent: whole('The pass mark', 1, 100),
  /** How many tries a member has; null for as many as they like. */
  max_attempts: whole('The number of tries', 1, QUIZ.maxAttempts).nullable().default(null),
  /** How long a member waits between two tries, in minutes. */
  wait_minutes: whole('The wait between tries', 0, QUIZ.maxWaitMinutes).default(0),
  /** How long a try may take, in minutes; null for no limit. */
  time_limit_minutes: whole('The time limit', 1, QUIZ.maxTimeLimitMinutes).nullable().default(null),
  questions: z
    .array(QuizQuestionInput, { error: 'Give the questions as a list' })
    .min(1, 'A quiz needs at least one question')
    .max(QUIZ.maxQuestions, `A quiz can have at most ${QUIZ.maxQuestions} questions`)
    .superRefine((questions, context) => {
      // An id names one question or answer: sent twice, one would be written over the other.
      const ids = questions.flatMap((question) => [question.id, ...question.options.map((option) => option.id)]).filter(Boolean);
      if (new Set(ids).size !== ids.length) context.addIssue({ code: 'custom', message: 'Each question and answer may be sent once' });
    }),
});
export type QuizInput = z.infer<typeof QuizInput>;

/** A question as staff and a scored try show it. */
const shownQuestion = { id: z.string(), kind: z.enum(QUESTION_KINDS), prompt: z.string(), explanation: z.string() };

/** The quiz as staff edit it: every question with its right answers. */
export const StaffQuiz = z.object({
  lesson_id: z.string(),
  pass_percent: z.number().int(),
  max_attempts: z.number().int().nullable(),
  wait_minutes: z.number().int(),
  time_limit_minutes: z.number().int().nullable(),
  questions: z.array(
    z.object({ ...shownQuestion, options: z.array(z.object({ id: z.string(), text: z.string(), correct: z.boolean() })) }),
  ),
});
export type StaffQuiz = z.infer<typeof StaffQuiz>;

/** How members did: to find a badly worded question, how often each answer was chosen. */
export const QuizResults = z.object({
  lesson_id: z.string(),
  attempts: z.number().int(),
  members: z.number().int(),
  members_passed: z.number().int(),
  /** Tries scored at or above the pass mark, in percent of scored tries. */
  pass_rate: z.number().int(),
  questions: z.array(
    z.object({
      id: z.string(),
      prompt: z.string(),
      answered: z.number().int(),
      /** Answered right, in percent of the tries that answered it. */
      right_percent: z.number().int(),
      options: z.array(z.object({ id: z.string(), text: z.string(), correct: z.boolean(), chosen: z.number().int() })),
    }),
  ),
});
export type QuizResults = z.infer<typeof QuizResults>;

// ---- Members --------------------------------------------------------------------------------

/** A try in progress: the questions in this try's order, without which answers are right. */
export const QuizAttempt = z.object({
  id: z.string(),
  started_at: z.string(),
  /** When the time is up; null without a time limit. */
  deadline: z.string().nullable(),
  questions: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(QUESTION_KINDS),
      prompt: z.string(),
      options: z.array(z.object({ id: z.string(), text: z.string() })),
    }),
  ),
});
export type QuizAttempt = z.infer<typeof QuizAttempt>;

/** A scored try: each question with the member's answers, the right ones and the explanation. */
export const QuizAttemptResult = z.object({
  id: z.string(),
  score_percent: z.number().int(),
  passed: z.boolean(),
  submitted_at: z.string(),
  /** The answers came after the time was up: the try counts, with nothing answered. */
  timed_out: z.boolean(),
  questions: z.array(
    z.object({
      ...shownQuestion,
      right: z.boolean(),
      /**
       * `correct` says which answers are right once the member passed or has no try left; until
       * then it is null, so a failed try is no key to the next one (`right` and the explanation are
       * always there).
       */
      options: z.array(z.object({ id: z.string(), text: z.string(), correct: z.boolean().nullable(), chosen: z.boolean() })),
    }),
  ),
});
export type QuizAttemptResult = z.infer<typeof QuizAttemptResult>;

/** What the member sees of a quiz before and between tries. */
export const QuizSummary = z.object({
  lesson_id: z.string(),
  question_count: z.number().int(),
  pass_percent: z.number().int(),
  max_attempts: z.number().int().nullable(),
  attempts_used: z.number().int(),
  /** Tries left; null for no limit. */
  attempts_left: z.number().int().nullable(),
  wait_minutes: z.number().int(),
  time_limit_minutes: z.number().int().nullable(),
  passed: z.boolean(),
  best_score: z.number().int().nullable(),
  /** When the next try may start, if the member must wait for it. */
  next_attempt_at: z.string().nullable(),
  /** A try started and not yet sent, to go on with. */
  open_attempt: QuizAttempt.nullable(),
  /** The latest scored try, with its explanations. */
  last_result: QuizAttemptResult.nullable(),
});
export type QuizSummary = z.infer<typeof QuizSummary>;

export const QuizAnswersInput = z.object({
  answers: z
    .array(
      z.object({
        question_id: uuidParam('Question'),
        option_ids: z.array(uuidParam('Answer')).max(QUIZ.maxOptions, `Choose at most ${QUIZ.maxOptions} answers`),
      }),
      { error: 'Give the answers as a list' },
    )
    .max(QUIZ.maxQuestions, `A quiz has at most ${QUIZ.maxQuestions} questions`),
});
export type QuizAnswersInput = z.infer<typeof QuizAnswersInput>;

export const AttemptParams = z.object({ id: uuidParam('Quiz try') });

/** The scored try and the course's progress (a pass completes the lesson). */
export const ScoredAttempt = z.object({ result: QuizAttemptResult, progress: CourseProgress });
export type ScoredAttempt = z.infer<typeof ScoredAttempt>;

export interface QuizzesService {
  summary(viewer: Viewer, lessonId: string): Promise<QuizSummary>;
  /** Starts a try (or gives back the one in progress). */
  start(viewer: Viewer, lessonId: string): Promise<QuizAttempt>;
  submit(viewer: Viewer, attemptId: string, input: QuizAnswersInput): Promise<ScoredAttempt>;
}

export interface QuizAuthoringService {
  get(viewer: Viewer, lessonId: string): Promise<StaffQuiz>;
  save(viewer: Viewer, lessonId: string, input: QuizInput): Promise<StaffQuiz>;
  results(viewer: Viewer, lessonId: string): Promise<QuizResults>;
}
