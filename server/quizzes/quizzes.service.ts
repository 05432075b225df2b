import { randomInt } from 'node:crypto';
import type { CoursesService } from '../../common/courses.contract.ts';
import { conflict, forbidden, notFound } from '../../common/errors.ts';
import { UPGRADE_NEEDED } from '../../common/learning.contract.ts';
import { QUIZ } from '../../common/limits.ts';
import { mayStudyCourse, requireMember } from '../../common/policies.ts';
import {
  ALREADY_PASSED,
  ALREADY_SUBMITTED,
  ATTEMPT_NOT_FOUND,
  NO_ATTEMPTS_LEFT,
  QUIZ_NOT_FOUND,
  waitUntil,
  type QuizAnswersInput,
  type QuizAttempt,
  type QuizAttemptResult,
  type QuizzesService,
} from '../../common/quizzes.contract.ts';
import { DEFAULT_TIME_ZONE, formatInZone } from '../../common/time-zones.ts';
import type { SignedInMember, Viewer } from '../../common/viewer.ts';
import type { ServerLearningService } from '../learning/learning.service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { requireLessonOpen } from '../courses/courses.service.ts';
import type { DataAccess } from '../repositories.ts';
import type { AttemptRow, QuizLayoutEntry, QuizQuestion, QuizRules } from './quizzes.repository.ts';

const MINUTE_MS = 60_000;

/** A fresh order, the same for no two tries (Fisher-Yates with the system's randomness). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const sameAnswers = (chosen: readonly string[], right: readonly string[]) =>
  chosen.length === right.length && right.every((id) => chosen.includes(id));

/** The try's questions still in the quiz, in the try's order, each with its answers in the try's order. */
function laidOut(layout: QuizLayoutEntry[], questions: QuizQuestion[]) {
  const byId = new Map(questions.map((question) => [question.id, question]));
  return layout.flatMap((entry) => {
    const question = byId.get(entry.question);
    if (!question) return [];
    const options = new Map(question.options.map((option) => [option.id, option]));
    // Answers staff added since the try began come last.
    const order = [...entry.options, ...question.options.map((option) => option.id).filter((id) => !entry.options.includes(id))];
    return [{ ...question, options: order.flatMap((id) => options.get(id) ?? []) }];
  });
}

/** The try as the member answers it: no right answers, no explanations. */
function attemptView(attempt: AttemptRow, questions: QuizQuestion[]): QuizAttempt {
  return {
    id: attempt.id,
    started_at: attempt.startedAt.toISOString(),
    deadline: attempt.deadline?.toISOString() ?? null,
    questions: laidOut(attempt.layout, questions).map((question) => ({
      id: question.id,
      kind: question.kind,
      prompt: question.prompt,
      options: question.options.map((option) => ({ id: option.id, text: option.text })),
    })),
  };
}

/**
 * A scored try with the member's answers and the explanations; which answers are right only when
 * `reveal` (the member passed, or has no try left).
 */
function resultView(attempt: AttemptRow, questions: QuizQuestion[], answers: Map<string, string[]>, reveal: boolean): QuizAttemptResult {
  return {
    id: attempt.id,
    score_percent: attempt.scorePercent ?? 0,
    passed: attempt.passed ?? false,
    submitted_at: (attempt.submittedAt ?? attempt.startedAt).toISOString(),
    timed_out: attempt.timedOut,
    questions: laidOut(attempt.layout, questions).map((question) => {
      const chosen = answers.get(question.id) ?? [];
      const right = question.options.filter((option) => option.correct).map((option) => option.id);
      return {
        id: question.id,
        kind: question.kind,
        prompt: question.prompt,
        explanation: question.explanation,
        right: sameAnswers(chosen, right),
        options: question.options.map((option) => ({
          ...option,
          correct: reveal ? option.correct : null,
          chosen: chosen.includes(option.id),
        })),
      };
    }),
  };
}

/** When the member may start another try, if they must wait for it. */
function nextTryAt(rules: QuizRules, latest: AttemptRow | null, now: Date): Date | null {
  if (!latest?.submittedAt || rules.waitMinutes === 0) return null;
  const at = new Date(latest.submittedAt.getTime() + rules.waitMinutes * MINUTE_MS);
  return at > now ? at : null;
}

export function createQuizzesService(deps: {
  data: DataAccess;
  courses: CoursesService;
  learning: ServerLearningService;
  mailer: Mailer;
  now?: () => Date;
}): QuizzesService {
  const { data, courses, learning } = deps;
  const now = deps.now ?? (() => new Date());

  /** Answers sent this late no longer count (the time limit, and a grace for a slow line). */
  const timeIsUp = (attempt: AttemptRow) =>
    attempt.deadline !== null && now().getTime() > attempt.deadline.getTime() + QUIZ.lateGraceSeconds * 1000;

  /** The quiz lesson, if this member may take it: a course they may see and study, a lesson that is a quiz. */
  async function quizLesson(viewer: Viewer, lessonId: string) {
    const member = requireMember(viewer);
    const lesson = await data.learning.findLesson(lessonId);
    if (!lesson || !(await courses.find(viewer, lesson.courseId))) throw notFound('Lesson not found');
    if (!mayStudyCourse(viewer, { tier: lesson.courseTier })) throw forbidden(UPGRADE_NEEDED);
    await requireLessonOpen(courses, viewer, { ...lesson, freePreview: false });
    const rules = lesson.kind === 'quiz' ? await data.quizzes.findRules(lessonId) : null;
    if (!rules) throw notFound(QUIZ_NOT_FOUND);
    return { member, lesson, rules };
  }

  /** A try whose time ran out before its answers came counts, scored with nothing answered. */
  async function closeIfTimeIsUp(attempt: AttemptRow | null): Promise<AttemptRow | null> {
    if (!attempt || !timeIsUp(attempt)) return attempt;
    await data.quizzes.score(attempt.id, { scorePercent: 0, passed: false, timedOut: true }, []);
    return null;
  }

  const zoneOf = (member: SignedInMember) => member.timeZone ?? DEFAULT_TIME_ZONE;

  return {
    async summary(viewer, lessonId) {
      const { member, rules } = await quizLesson(viewer, lessonId);
      const open = await closeIfTimeIsUp(await data.quizzes.openAttempt(member.id, lessonId));
      const [questions, tries] = await Promise.all([data.quizzes.questions(lessonId), data.quizzes.triesOf(member.id, lessonId)]);
      const next = tries.passed ? null : nextTryAt(rules, tries.latest, now());
      const noTryLeft = rules.maxAttempts !== null && tries.used >= rules.maxAttempts;
      return {
        lesson_id: lessonId,
        question_count: questions.length,
        pass_percent: rules.passPercent,
        max_attempts: rules.maxAttempts,
        attempts_used: tries.used,
        attempts_left: rules.maxAttempts === null ? null : Math.max(0, rules.maxAttempts - tries.used),
        wait_minutes: rules.waitMinutes,
        time_limit_minutes: rules.timeLimitMinutes,
        passed: tries.passed,
        best_score: tries.best,
        next_attempt_at: next?.toISOString() ?? null,
        open_attempt: open ? attemptView(open, questions) : null,
        last_result: tries.latest
          ? resultView(tries.latest, questions, await data.quizzes.answersOf(tries.latest.id), tries.passed || noTryLeft)
          : null,
      };
    },

    async start(viewer, lessonId) {
      const { member, lesson, rules } = await quizLesson(viewer, lessonId);
      const questions = await data.quizzes.questions(lessonId);
      if (questions.length === 0) throw notFound(QUIZ_NOT_FOUND);
      // A try whose time ran out is closed for good first: the checks below may refuse this start,
      // and their refusal must not take the closing back with it.
      await closeIfTimeIsUp(await data.quizzes.openAttempt(member.id, lessonId));
      const attempt = await data.transaction(async (tx) => {
        // Starts sent at once are taken one at a time: one try, and the tries left counted right.
        await tx.quizzes.lockTries(member.id, lessonId);
        const open = await tx.quizzes.openAttempt(member.id, lessonId);
        if (open && !timeIsUp(open)) return open;
        if (open) await tx.quizzes.score(open.id, { scorePercent: 0, passed: false, timedOut: true }, []);
        const tries = await tx.quizzes.triesOf(member.id, lessonId);
        if (tries.passed) throw conflict(ALREADY_PASSED);
        if (rules.maxAttempts !== null && tries.used >= rules.maxAttempts) throw conflict(NO_ATTEMPTS_LEFT);
        const next = nextTryAt(rules, tries.latest, now());
        if (next) throw conflict(waitUntil(formatInZone(next, zoneOf(member))));
        // Taking a quiz starts its course, as watching a lesson does.
        await tx.learning.enrol(member.id, lesson.courseId);
        return tx.quizzes.startAttempt({
          memberId: member.id,
          lessonId,
          layout: shuffled(questions).map((question) => ({ question: question.id, options: shuffled(question.options.map((o) => o.id)) })),
          deadline: rules.timeLimitMinutes === null ? null : new Date(now().getTime() + rules.timeLimitMinutes * MINUTE_MS),
        });
      });
      return attemptView(attempt, questions);
    },

    async submit(viewer: Viewer, attemptId: string, input: QuizAnswersInput) {
      const member = requireMember(viewer);
      const attempt = await data.quizzes.attempt(attemptId);
      // Another member's try is not there for this one.
      if (!attempt || attempt.memberId !== member.id) throw notFound(ATTEMPT_NOT_FOUND);
      // The course must still be the member's to study (a plan that ended since stops the try here).
      const { lesson, rules } = await quizLesson(viewer, attempt.lessonId);
      if (attempt.submittedAt) throw conflict(ALREADY_SUBMITTED);
      const questions = laidOut(attempt.layout, await data.quizzes.questions(attempt.lessonId));
      const timedOut = timeIsUp(attempt);
      const given = new Map(input.answers.map((answer) => [answer.question_id, answer.option_ids]));
      const answers = questions.map((question) => {
        // Only this question's own answers count, each once.
        const own = new Set(question.options.map((option) => option.id));
        const chosen = [...new Set((given.get(question.id) ?? []).filter((id) => own.has(id)))];
        const right = question.options.filter((option) => option.correct).map((option) => option.id);
        return { questionId: question.id, optionIds: chosen, right: sameAnswers(chosen, right) };
      });
      // Answers sent once the time is up are not taken: the try counts with nothing answered, as
      // one closed when the member comes back (nor do they count in what staff see of the questions).
      const taken = timedOut ? [] : answers;
      const rightCount = taken.filter((answer) => answer.right).length;
      const scorePercent = questions.length === 0 ? 0 : Math.round((100 * rightCount) / questions.length);
      const passed = !timedOut && scorePercent >= rules.passPercent;
      const { scored, earned } = await data.transaction(async (tx) => {
        await tx.quizzes.lockTries(member.id, attempt.lessonId);
        const row = await tx.quizzes.score(attempt.id, { scorePercent, passed, timedOut }, taken);
        if (!row) throw conflict(ALREADY_SUBMITTED);
        // A pass completes the lesson in the same transaction: the last one issues the certificate.
        return { scored: row, earned: passed ? await learning.completeInTransaction(tx, member, lesson) : false };
      });
      if (earned) deps.mailer.nudge();
      const [allQuestions, tries] = await Promise.all([
        data.quizzes.questions(attempt.lessonId),
        data.quizzes.triesOf(member.id, attempt.lessonId),
      ]);
      const reveal = tries.passed || (rules.maxAttempts !== null && tries.used >= rules.maxAttempts);
      return {
        result: resultView(scored, allQuestions, new Map(taken.map((answer) => [answer.questionId, answer.optionIds])), reveal),
        progress: await learning.courseProgress(viewer, lesson.courseId),
      };
    },
  };
}
