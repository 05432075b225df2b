import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffCourseDetail } from '../../common/courses.contract.ts';
import { QUIZ } from '../../common/limits.ts';
import {
  ALREADY_PASSED,
  ALREADY_SUBMITTED,
  ATTEMPT_NOT_FOUND,
  NO_ATTEMPTS_LEFT,
  QUIZ_IS_COMPLETED_BY_PASSING,
  QUIZ_NOT_FOUND,
  type QuizAttempt,
  type QuizResults,
  type QuizSummary,
  type ScoredAttempt,
  type StaffQuiz,
} from '../../common/quizzes.contract.ts';
import { certificates, lessonProgress, members, quizAnswers, quizAttempts, quizQuestions } from '../../db/schema.ts';
import { createTestApp, type MemberLogin, type TestApp } from '../helpers/test-app.ts';

// Quiz lessons: staff write the questions; members take tries the server shuffles, times and
// scores; the right answers reach the member only with the scored try; a pass completes the lesson
// (and the course's certificate, when it was the last one).

let t: TestApp;
let staff: { authorization: string };
beforeAll(async () => {
  t = await createTestApp({ seed: false });
  staff = { authorization: `Bearer ${(await t.loginAsStaff()).token}` };
});
afterAll(() => t.close());

type Headers = { authorization: string } | Record<string, never>;
const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

const COURSE = {
  description: 'What a buyer must hear before the first showing.',
  category: 'sales',
  tier: 'bronze',
  instructor: 'Dana Whitfield',
  level: 'beginner',
  duration: '40m',
};
const VIDEO_LESSON = { title: 'Buyer consultations', duration: '10:00', video_url: 'https://videos.example.com/consult' };

// Prompts and answers avoid the words 'correct' and 'explanation': the raw JSON is searched for them.
const SINGLE = {
  kind: 'single',
  prompt: 'Which report gathers the comparable sales?',
  explanation: 'The market analysis lists recent sales nearby.',
  options: [
    { text: 'The market analysis', correct: true },
    { text: 'The deed', correct: false },
    { text: 'The survey', correct: false },
  ],
} as const;
const MULTIPLE = {
  kind: 'multiple',
  prompt: 'Which belong in a listing presentation?',
  explanation: 'Pricing and marketing; the commission of other agents does not.',
  options: [
    { text: 'A pricing strategy', correct: true },
    { text: 'A marketing plan', correct: true },
    { text: 'Other agents’ fees', correct: false },
    { text: 'The seller’s mortgage balance', correct: false },
  ],
} as const;
const TRUE_FALSE = {
  kind: 'true_false',
  prompt: 'A buyer’s agent works for the seller.',
  explanation: 'They work for the buyer.',
  options: [
    { text: 'True', correct: false },
    { text: 'False', correct: true },
  ],
} as const;
const QUESTIONS = [SINGLE, MULTIPLE, TRUE_FALSE];

let courses = 0;
async function newCourse(overrides: object = {}): Promise<string> {
  const created = await request('POST', '/api/admin/courses', staff, { ...COURSE, title: `Quiz Course ${++courses}`, ...overrides });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as StaffCourseDetail).course.id;
}

/** Adds the lesson and returns its id (the new lesson comes last). */
async function addLesson(courseId: string, lesson: object): Promise<string> {
  const added = await request('POST', `/api/admin/courses/${courseId}/lessons`, staff, lesson);
  expect(added.statusCode, added.body).toBe(201);
  return (added.json() as StaffCourseDetail).lessons.at(-1)!.id;
}

const quizLesson = (title = 'Check what you learned') => ({ kind: 'quiz', title, duration: '5:00' });

async function saveQuiz(lessonId: string, input: object, headers: Headers = staff): Promise<StaffQuiz> {
  const saved = await request('PUT', `/api/admin/lessons/${lessonId}/quiz`, headers, input);
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json();
}

async function publish(courseId: string) {
  const published = await request('POST', `/api/admin/courses/${courseId}/status`, staff, { status: 'published' });
  expect(published.statusCode, published.body).toBe(200);
}

/** A published Bronze course whose only lesson is a quiz of these questions and rules. */
async function quizCourse(rules: object = {}, questions: readonly object[] = QUESTIONS, course: object = {}) {
  const courseId = await newCourse(course);
  const lessonId = await addLesson(courseId, quizLesson());
  const quiz = await saveQuiz(lessonId, { pass_percent: 70, questions, ...rules });
  await publish(courseId);
  return { courseId, lessonId, quiz };
}

async function startTry(who: MemberLogin, lessonId: string): Promise<QuizAttempt> {
  const started = await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, who.headers);
  expect(started.statusCode, started.body).toBe(200);
  return started.json();
}

type Answer = { question_id: string; option_ids: string[] };
const send = (who: MemberLogin, attemptId: string, answers: Answer[]) =>
  request('POST', `/api/quiz-attempts/${attemptId}/answers`, who.headers, { answers });

async function submit(who: MemberLogin, attemptId: string, answers: Answer[]): Promise<ScoredAttempt> {
  const sent = await send(who, attemptId, answers);
  expect(sent.statusCode, sent.body).toBe(200);
  return sent.json();
}

const rightIds = (question: StaffQuiz['questions'][number]) => question.options.filter((o) => o.correct).map((o) => o.id);
const wrongIds = (question: StaffQuiz['questions'][number]) => question.options.filter((o) => !o.correct).map((o) => o.id);
const allRight = (quiz: StaffQuiz): Answer[] => quiz.questions.map((q) => ({ question_id: q.id, option_ids: rightIds(q) }));
const allWrong = (quiz: StaffQuiz): Answer[] => quiz.questions.map((q) => ({ question_id: q.id, option_ids: [wrongIds(q)[0]!] }));

async function summaryOf(who: MemberLogin, lessonId: string): Promise<QuizSummary> {
  const summary = await request('GET', `/api/lessons/${lessonId}/quiz`, who.headers);
  expect(summary.statusCode, summary.body).toBe(200);
  return summary.json();
}

describe('the right answers', () => {
  it('stay on the server until the member passed or used every try: a failed try comes back with its explanations, what was chosen and what was right, not the right answers', async () => {
    const { lessonId, quiz } = await quizCourse();
    const member = await t.loginAs('bronze');

    const started = await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, member.headers);
    expect(started.statusCode).toBe(200);
    expect(started.body).not.toContain('correct');
    expect(started.body).not.toContain('explanation');
    const attempt = started.json() as QuizAttempt;
    expect(attempt.questions).toHaveLength(3);
    for (const question of attempt.questions) {
      for (const option of question.options) expect(Object.keys(option).sort()).toEqual(['id', 'text']);
    }

    const summary = await request('GET', `/api/lessons/${lessonId}/quiz`, member.headers);
    expect(summary.statusCode).toBe(200);
    expect(summary.body).not.toContain('correct');
    expect(summary.body).not.toContain('explanation');
    expect((summary.json() as QuizSummary).open_attempt).toEqual(attempt);

    // Single right; multiple with one wrong answer added; true/false wrong.
    const [single, multiple, trueFalse] = quiz.questions;
    const sent: Answer[] = [
      { question_id: single!.id, option_ids: rightIds(single!) },
      { question_id: multiple!.id, option_ids: [...rightIds(multiple!), wrongIds(multiple!)[0]!] },
      { question_id: trueFalse!.id, option_ids: wrongIds(trueFalse!) },
    ];
    const { result } = await submit(member, attempt.id, sent);
    expect(result.questions.map((q) => q.id).sort()).toEqual(quiz.questions.map((q) => q.id).sort());
    for (const question of quiz.questions) {
      const scored = result.questions.find((q) => q.id === question.id)!;
      const chosen = sent.find((answer) => answer.question_id === question.id)!.option_ids;
      expect(scored.explanation).toBe(question.explanation);
      expect(scored.right).toBe(question.id === single!.id);
      expect([...scored.options].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        question.options
          .map((option) => ({ ...option, correct: null, chosen: chosen.includes(option.id) }))
          .sort((a, b) => a.id.localeCompare(b.id)),
      );
    }
    expect(JSON.stringify(result)).not.toContain('"correct":true');
    expect((await summaryOf(member, lessonId)).last_result).toEqual(result);

    // Passed: now the right answers are shown, on the try and in the summary.
    const passed = await submit(member, (await startTry(member, lessonId)).id, allRight(quiz));
    expect(passed.result.passed).toBe(true);
    for (const question of quiz.questions) {
      const scored = passed.result.questions.find((q) => q.id === question.id)!;
      expect(Object.fromEntries(scored.options.map((option) => [option.id, option.correct]))).toEqual(
        Object.fromEntries(question.options.map((option) => [option.id, option.correct])),
      );
    }
    expect((await summaryOf(member, lessonId)).last_result).toEqual(passed.result);
  });

  it('shows the right answers once the last try is used, passed or not', async () => {
    const { lessonId, quiz } = await quizCourse({ max_attempts: 1 });
    const member = await t.loginAs('bronze');
    const { result } = await submit(member, (await startTry(member, lessonId)).id, allWrong(quiz));
    expect(result.passed).toBe(false);
    expect(result.questions.flatMap((q) => q.options.map((o) => o.correct))).not.toContain(null);
    expect(result.questions.flatMap((q) => q.options.filter((o) => o.correct)).length).toBeGreaterThan(0);
  });
});

describe('scoring on the server', () => {
  it('counts a question right only with all its right answers and nothing else, and passes at the pass mark', async () => {
    const { lessonId, quiz } = await quizCourse({ pass_percent: 70 });
    const other = await quizCourse();
    const member = await t.loginAs('bronze');
    const [single, multiple, trueFalse] = quiz.questions;

    // 1 of 3: multiple with a wrong answer added, true/false wrong.
    let scored = await submit(member, (await startTry(member, lessonId)).id, [
      { question_id: single!.id, option_ids: rightIds(single!) },
      { question_id: multiple!.id, option_ids: [...rightIds(multiple!), wrongIds(multiple!)[0]!] },
      { question_id: trueFalse!.id, option_ids: wrongIds(trueFalse!) },
    ]);
    expect(scored.result).toMatchObject({ score_percent: 33, passed: false, timed_out: false });

    // A single-answer question with two answers chosen, and a multiple with only one of its right
    // ones, are wrong.
    scored = await submit(member, (await startTry(member, lessonId)).id, [
      { question_id: single!.id, option_ids: [...rightIds(single!), wrongIds(single!)[0]!] },
      { question_id: multiple!.id, option_ids: [rightIds(multiple!)[0]!] },
      { question_id: trueFalse!.id, option_ids: rightIds(trueFalse!) },
    ]);
    expect(scored.result).toMatchObject({ score_percent: 33, passed: false });
    // 2 of 3 is 67%, under the pass mark of 70.
    scored = await submit(member, (await startTry(member, lessonId)).id, [
      { question_id: single!.id, option_ids: rightIds(single!) },
      { question_id: multiple!.id, option_ids: [rightIds(multiple!)[0]!] },
      { question_id: trueFalse!.id, option_ids: rightIds(trueFalse!) },
    ]);
    expect(scored.result).toMatchObject({ score_percent: 67, passed: false });
    expect(scored.result.questions.find((q) => q.id === multiple!.id)!.right).toBe(false);
    expect(scored.progress.completed_lesson_ids).not.toContain(lessonId);

    // Every right answer, each with answers of another question and of another quiz added: those
    // are ignored, so the answers still count as right. A question of another quiz counts nothing.
    const foreignOption = other.quiz.questions[0]!.options[0]!.id;
    const attempt = await startTry(member, lessonId);
    scored = await submit(member, attempt.id, [
      { question_id: single!.id, option_ids: [...rightIds(single!), rightIds(multiple!)[0]!, foreignOption] },
      { question_id: multiple!.id, option_ids: [...rightIds(multiple!), rightIds(trueFalse!)[0]!] },
      { question_id: trueFalse!.id, option_ids: [...rightIds(trueFalse!), foreignOption] },
      { question_id: other.quiz.questions[0]!.id, option_ids: rightIds(other.quiz.questions[0]!) },
    ]);
    expect(scored.result).toMatchObject({ score_percent: 100, passed: true });
    expect(scored.progress.completed_lesson_ids).toEqual([lessonId]);
    const stored = await t.db.select().from(quizAnswers).where(eq(quizAnswers.attemptId, attempt.id));
    expect(stored.map((row) => row.questionId).sort()).toEqual([single!.id, multiple!.id, trueFalse!.id].sort());
    for (const row of stored) {
      const question = quiz.questions.find((q) => q.id === row.questionId)!;
      expect(row.optionIds.sort()).toEqual(rightIds(question).sort());
      expect(row.right).toBe(true);
    }

    expect(await summaryOf(member, lessonId)).toMatchObject({ passed: true, best_score: 100, attempts_used: 4, attempts_left: null });
  });

  it('passes a try scored exactly at the pass mark', async () => {
    const { lessonId, quiz } = await quizCourse({ pass_percent: 67 });
    const member = await t.loginAs('bronze');
    const [single, multiple, trueFalse] = quiz.questions;
    const { result } = await submit(member, (await startTry(member, lessonId)).id, [
      { question_id: single!.id, option_ids: rightIds(single!) },
      { question_id: multiple!.id, option_ids: wrongIds(multiple!) },
      { question_id: trueFalse!.id, option_ids: rightIds(trueFalse!) },
    ]);
    expect(result).toMatchObject({ score_percent: 67, passed: true });
  });

  it('scores a try once: answers sent again, or twice at once, are refused with 409', async () => {
    const { lessonId, quiz } = await quizCourse();
    const member = await t.loginAs('bronze');
    const attempt = await startTry(member, lessonId);
    await submit(member, attempt.id, allWrong(quiz));
    const again = await send(member, attempt.id, allRight(quiz));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(ALREADY_SUBMITTED);
    const [row] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id));
    expect(row).toMatchObject({ scorePercent: 0, passed: false });

    const racer = await t.loginAs('bronze');
    const raced = await startTry(racer, lessonId);
    const answers = await Promise.all([send(racer, raced.id, allRight(quiz)), send(racer, raced.id, allWrong(quiz))]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)!.json().detail).toBe(ALREADY_SUBMITTED);
    // One set of answers stored, the one of the try that won.
    expect(await t.db.select().from(quizAnswers).where(eq(quizAnswers.attemptId, raced.id))).toHaveLength(3);
    const winner = (answers.find((answer) => answer.statusCode === 200)!.json() as ScoredAttempt).result;
    const [scoredRow] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, raced.id));
    expect(scoredRow).toMatchObject({ scorePercent: winner.score_percent, passed: winner.passed });
  });
});

describe('tries', () => {
  it('refuses a try past the number allowed', async () => {
    const { lessonId, quiz } = await quizCourse({ max_attempts: 2 });
    const member = await t.loginAs('bronze');
    for (let round = 0; round < 2; round++) await submit(member, (await startTry(member, lessonId)).id, allWrong(quiz));
    const refused = await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, member.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(NO_ATTEMPTS_LEFT);
    expect(await summaryOf(member, lessonId)).toMatchObject({ attempts_used: 2, attempts_left: 0, passed: false, open_attempt: null });
  });

  it('makes the member wait between tries, and lets them start once the wait is over', async () => {
    const { lessonId, quiz } = await quizCourse({ wait_minutes: 30 });
    const member = await t.loginAs('bronze');
    const first = await startTry(member, lessonId);
    await submit(member, first.id, allWrong(quiz));
    const refused = await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, member.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/^You can try again at /);
    expect((await summaryOf(member, lessonId)).next_attempt_at).not.toBeNull();

    // The wait is counted from when the answers were sent.
    await t.db
      .update(quizAttempts)
      .set({ submittedAt: sql`now() - interval '31 minutes'` })
      .where(eq(quizAttempts.id, first.id));
    expect((await summaryOf(member, lessonId)).next_attempt_at).toBeNull();
    expect((await startTry(member, lessonId)).id).not.toBe(first.id);
  });

  it('refuses a new try once the quiz is passed', async () => {
    const { lessonId, quiz } = await quizCourse();
    const member = await t.loginAs('bronze');
    await submit(member, (await startTry(member, lessonId)).id, allRight(quiz));
    const refused = await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, member.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(ALREADY_PASSED);
  });

  it('gives back the try in progress: a second start, or two at once, make one open try', async () => {
    const { lessonId } = await quizCourse();
    const member = await t.loginAs('bronze');
    const [one, two] = await Promise.all([startTry(member, lessonId), startTry(member, lessonId)]);
    expect(two.id).toBe(one.id);
    expect((await startTry(member, lessonId)).id).toBe(one.id);
    const open = await t.db
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.memberId, member.memberId), eq(quizAttempts.lessonId, lessonId), isNull(quizAttempts.submittedAt)));
    expect(open.map((row) => row.id)).toEqual([one.id]);
  });

  it('shuffles the questions of each try', async () => {
    const questions = Array.from({ length: 6 }, (_, index) => ({
      kind: 'true_false',
      prompt: `Statement number ${index + 1}`,
      options: [
        { text: 'True', correct: index % 2 === 0 },
        { text: 'False', correct: index % 2 === 1 },
      ],
    }));
    const { lessonId, quiz } = await quizCourse({}, questions);
    const orders = new Set<string>();
    for (let member = 0; member < 10; member++) {
      const attempt = await startTry(await t.loginAs('bronze'), lessonId);
      // Every question once, whatever the order.
      expect(attempt.questions.map((q) => q.id).sort()).toEqual(quiz.questions.map((q) => q.id).sort());
      orders.add(attempt.questions.map((q) => q.id).join());
    }
    // Ten tries in one order out of 720 would happen about once in 10^25 runs.
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('the time limit', () => {
  it('scores answers sent after the time is up as nothing answered, and counts a few late seconds', async () => {
    const { lessonId, quiz } = await quizCourse({ time_limit_minutes: 10 });
    const member = await t.loginAs('bronze');
    const attempt = await startTry(member, lessonId);
    // The deadline is the server's start time plus the limit (the database stamps the start, the
    // service the deadline: a few milliseconds apart).
    const allowed = new Date(attempt.deadline!).getTime() - new Date(attempt.started_at).getTime();
    expect(Math.abs(allowed - 10 * 60_000)).toBeLessThan(5000);

    await t.db
      .update(quizAttempts)
      .set({ deadline: new Date(Date.now() - (QUIZ.lateGraceSeconds + 60) * 1000) })
      .where(eq(quizAttempts.id, attempt.id));
    const late = await submit(member, attempt.id, allRight(quiz));
    expect(late.result).toMatchObject({ timed_out: true, score_percent: 0, passed: false });
    expect(late.progress.completed_lesson_ids).not.toContain(lessonId);
    expect(await t.db.select().from(lessonProgress).where(eq(lessonProgress.memberId, member.memberId))).toEqual([]);

    // A try whose time ran out is closed as soon as the member looks at the quiz again: it counts,
    // and answers sent to it afterwards are refused.
    const abandoned = await startTry(member, lessonId);
    await t.db
      .update(quizAttempts)
      .set({ deadline: new Date(Date.now() - (QUIZ.lateGraceSeconds + 60) * 1000) })
      .where(eq(quizAttempts.id, abandoned.id));
    const summary = await summaryOf(member, lessonId);
    expect(summary).toMatchObject({ open_attempt: null, attempts_used: 2, passed: false });
    expect(summary.last_result).toMatchObject({ id: abandoned.id, timed_out: true, score_percent: 0 });
    const tooLate = await send(member, abandoned.id, allRight(quiz));
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().detail).toBe(ALREADY_SUBMITTED);

    // Within the grace for a slow line, the answers count.
    const next = await startTry(member, lessonId);
    await t.db
      .update(quizAttempts)
      .set({ deadline: new Date(Date.now() - 5000) })
      .where(eq(quizAttempts.id, next.id));
    const justInTime = await submit(member, next.id, allRight(quiz));
    expect(justInTime.result).toMatchObject({ timed_out: false, score_percent: 100, passed: true });
    expect(justInTime.progress.completed_lesson_ids).toEqual([lessonId]);
  });
});

describe('the time limit and the wait together', () => {
  it('counts a try whose time ran out when the member starts again, even when they must then wait', async () => {
    const { lessonId } = await quizCourse({ time_limit_minutes: 5, wait_minutes: 60 });
    const member = await t.loginAs('bronze');
    const abandoned = await startTry(member, lessonId);
    await t.db
      .update(quizAttempts)
      .set({ deadline: new Date(Date.now() - (QUIZ.lateGraceSeconds + 60) * 1000) })
      .where(eq(quizAttempts.id, abandoned.id));
    const refused = await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, member.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/^You can try again at /);
    // The wait runs from the try that ran out: it must be on record as scored, or every start
    // would count the wait again from that moment.
    const [row] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, abandoned.id));
    expect(row).toMatchObject({ timedOut: true, scorePercent: 0, passed: false });
    expect(row!.submittedAt).not.toBeNull();
  });
});

describe('certificates', () => {
  /** A published course of a video lesson then a quiz, the member enrolled. */
  async function courseWithQuiz(certificateShowsScore: boolean) {
    const courseId = await newCourse({ certificate_shows_score: certificateShowsScore });
    const videoId = await addLesson(courseId, VIDEO_LESSON);
    const quizId = await addLesson(courseId, quizLesson());
    const quiz = await saveQuiz(quizId, { pass_percent: 60, questions: QUESTIONS });
    await publish(courseId);
    const member = await t.loginAs('bronze');
    expect((await request('POST', `/api/courses/${courseId}/enrol`, member.headers)).statusCode).toBe(200);
    return { courseId, videoId, quizId, quiz, member };
  }

  it('waits for the quiz to be passed, then states the score when the course says so', async () => {
    const { videoId, quizId, quiz, member } = await courseWithQuiz(true);
    const watched = await request('POST', `/api/lessons/${videoId}/complete`, member.headers);
    expect(watched.json()).toMatchObject({ completed_lesson_ids: [videoId], certificate_code: null });

    const completeQuiz = await request('POST', `/api/lessons/${quizId}/complete`, member.headers);
    expect(completeQuiz.statusCode).toBe(409);
    expect(completeQuiz.json().detail).toBe(QUIZ_IS_COMPLETED_BY_PASSING);

    const failed = await submit(member, (await startTry(member, quizId)).id, allWrong(quiz));
    expect(failed.progress).toMatchObject({ completed_lesson_ids: [videoId], certificate_code: null });
    expect(await t.db.select().from(certificates).where(eq(certificates.memberId, member.memberId))).toEqual([]);

    // Two of three right: 67%, over the pass mark of 60.
    const [single, multiple, trueFalse] = quiz.questions;
    const passed = await submit(member, (await startTry(member, quizId)).id, [
      { question_id: single!.id, option_ids: rightIds(single!) },
      { question_id: multiple!.id, option_ids: [] },
      { question_id: trueFalse!.id, option_ids: rightIds(trueFalse!) },
    ]);
    expect(passed.result).toMatchObject({ score_percent: 67, passed: true });
    expect(passed.progress.completed_lesson_ids.sort()).toEqual([videoId, quizId].sort());
    expect(passed.progress.progress_percent).toBe(100);
    const code = passed.progress.certificate_code;
    expect(code).toMatch(/^RP-/);
    const verified = await request('GET', `/api/certificates/${code}`);
    expect(verified.json()).toMatchObject({ code, score_percent: 67 });
  });

  it('states the best passing score also when a video lesson is the last one done', async () => {
    const { videoId, quizId, quiz, member } = await courseWithQuiz(true);
    const passed = await submit(member, (await startTry(member, quizId)).id, allRight(quiz));
    expect(passed.progress).toMatchObject({ completed_lesson_ids: [quizId], certificate_code: null });
    const code = (await request('POST', `/api/lessons/${videoId}/complete`, member.headers)).json().certificate_code;
    expect(code).toMatch(/^RP-/);
    expect((await request('GET', `/api/certificates/${code}`)).json()).toMatchObject({ code, score_percent: 100 });
  });

  it('states no score on the certificate of a course that does not show it', async () => {
    const { videoId, quizId, quiz, member } = await courseWithQuiz(false);
    await request('POST', `/api/lessons/${videoId}/complete`, member.headers);
    const passed = await submit(member, (await startTry(member, quizId)).id, allRight(quiz));
    const code = passed.progress.certificate_code;
    expect(code).toMatch(/^RP-/);
    expect((await request('GET', `/api/certificates/${code}`)).json()).toMatchObject({ code, score_percent: null });
  });
});

describe('who may take a quiz', () => {
  it('refuses a member whose plan does not reach the course, and a visitor', async () => {
    const { lessonId, quiz } = await quizCourse();
    const free = await t.loginAs('free');
    for (const answer of [
      await request('GET', `/api/lessons/${lessonId}/quiz`, free.headers),
      await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, free.headers),
    ]) {
      expect(answer.statusCode).toBe(403);
    }
    expect(await t.db.select().from(quizAttempts).where(eq(quizAttempts.memberId, free.memberId))).toEqual([]);

    const member = await t.loginAs('bronze');
    const attempt = await startTry(member, lessonId);
    expect((await request('GET', `/api/lessons/${lessonId}/quiz`)).statusCode).toBe(401);
    expect((await request('POST', `/api/lessons/${lessonId}/quiz/attempts`)).statusCode).toBe(401);
    expect((await request('POST', `/api/quiz-attempts/${attempt.id}/answers`, {}, { answers: allRight(quiz) })).statusCode).toBe(401);
  });

  it("keeps a member's try their own", async () => {
    const { lessonId, quiz } = await quizCourse();
    const [owner, stranger] = [await t.loginAs('bronze'), await t.loginAs('bronze')];
    const attempt = await startTry(owner, lessonId);
    for (const attemptId of [attempt.id, randomUUID()]) {
      const refused = await send(stranger, attemptId, allRight(quiz));
      expect(refused.statusCode).toBe(404);
      expect(refused.json().detail).toBe(ATTEMPT_NOT_FOUND);
    }
    const [row] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id));
    expect(row!.submittedAt).toBeNull();
    expect((await submit(owner, attempt.id, allRight(quiz))).result.passed).toBe(true);
  });

  it('refuses the answers of a member whose plan dropped below the course since the try began', async () => {
    const { lessonId, quiz } = await quizCourse();
    const member = await t.loginAs('bronze');
    const attempt = await startTry(member, lessonId);
    await t.db.update(members).set({ membershipTier: 'free', complimentaryTier: null }).where(eq(members.id, member.memberId));
    const refused = await send(member, attempt.id, allRight(quiz));
    expect(refused.statusCode).toBe(403);
    const [row] = await t.db.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id));
    expect(row!.submittedAt).toBeNull();
    expect(await t.db.select().from(lessonProgress).where(eq(lessonProgress.memberId, member.memberId))).toEqual([]);
  });

  it('finds no quiz in a video lesson, nor in a quiz lesson whose questions were never saved', async () => {
    const courseId = await newCourse();
    const videoId = await addLesson(courseId, VIDEO_LESSON);
    // A course is not published with a quiz no one could pass...
    const draftQuizId = await addLesson(courseId, quizLesson('Coming soon'));
    const refused = await request('POST', `/api/admin/courses/${courseId}/status`, staff, { status: 'published' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Write the questions of the quiz “Coming soon” before publishing the course.');
    expect((await request('DELETE', `/api/admin/lessons/${draftQuizId}`, staff)).statusCode).toBe(200);
    await publish(courseId);
    // ...but a quiz added to a course already in the catalogue is there before its questions are.
    const unwrittenId = await addLesson(courseId, quizLesson('Coming soon'));
    const member = await t.loginAs('bronze');
    for (const lessonId of [videoId, unwrittenId]) {
      for (const answer of [
        await request('GET', `/api/lessons/${lessonId}/quiz`, member.headers),
        await request('POST', `/api/lessons/${lessonId}/quiz/attempts`, member.headers),
      ]) {
        expect(answer.statusCode, lessonId).toBe(404);
        expect(answer.json().detail).toBe(QUIZ_NOT_FOUND);
      }
    }
    expect((await request('GET', `/api/admin/lessons/${videoId}/quiz`, staff)).statusCode).toBe(404);
  });
});

describe("the member's data", () => {
  it("holds their own tries, each with its answers, in Download my data, and no one else's", async () => {
    const { lessonId, quiz } = await quizCourse();
    const member = await t.loginAs('bronze');
    const other = await t.loginAs('bronze');
    await submit(member, (await startTry(member, lessonId)).id, allWrong(quiz));
    const passed = await submit(member, (await startTry(member, lessonId)).id, allRight(quiz));
    await submit(other, (await startTry(other, lessonId)).id, allRight(quiz));
    const exported = await request('GET', '/api/account/export', member.headers);
    expect(exported.statusCode).toBe(200);
    const tries = (exported.json() as { quiz_tries: { lesson_id: string; score_percent: number; passed: boolean; answers: unknown[] }[] })
      .quiz_tries;
    expect(tries.map((each) => [each.lesson_id, each.score_percent, each.passed])).toEqual([
      [lessonId, 0, false],
      [lessonId, 100, true],
    ]);
    expect(tries[1]!.answers).toHaveLength(quiz.questions.length);
    expect(passed.result.passed).toBe(true);
  });
});

describe('staff write quizzes', () => {
  it('lets an editor write a quiz and refuses members and visitors', async () => {
    const courseId = await newCourse();
    const lessonId = await addLesson(courseId, quizLesson());
    const input = { pass_percent: 80, max_attempts: 3, wait_minutes: 5, time_limit_minutes: 15, questions: QUESTIONS };
    const member = await t.loginAs('gold');
    expect((await request('PUT', `/api/admin/lessons/${lessonId}/quiz`, member.headers, input)).statusCode).toBe(403);
    expect((await request('PUT', `/api/admin/lessons/${lessonId}/quiz`, {}, input)).statusCode).toBe(401);
    expect((await request('GET', `/api/admin/lessons/${lessonId}/quiz`, member.headers)).statusCode).toBe(403);
    expect((await request('GET', `/api/admin/lessons/${lessonId}/quiz/results`, member.headers)).statusCode).toBe(403);
    expect(await t.db.select().from(quizQuestions).where(eq(quizQuestions.lessonId, lessonId))).toEqual([]);

    const editor = { authorization: `Bearer ${(await t.loginAsStaff({ role: 'editor' })).token}` };
    const saved = await saveQuiz(lessonId, input, editor);
    expect(saved).toMatchObject({ lesson_id: lessonId, pass_percent: 80, max_attempts: 3, wait_minutes: 5, time_limit_minutes: 15 });
    expect(saved.questions.map((q) => q.prompt)).toEqual(QUESTIONS.map((q) => q.prompt));
    expect(saved.questions[1]!.options.map((o) => o.correct)).toEqual([true, true, false, false]);
    expect((await request('GET', `/api/admin/lessons/${lessonId}/quiz`, editor)).json()).toEqual(saved);
  });

  it('refuses a quiz that does not make sense, with what is wrong', async () => {
    const courseId = await newCourse();
    const lessonId = await addLesson(courseId, quizLesson());
    const cases: [object[], string][] = [
      [
        [{ ...SINGLE, options: SINGLE.options.map((o) => ({ ...o, correct: o.text !== 'The survey' })) }],
        'Mark exactly one answer as right',
      ],
      [
        [
          {
            ...TRUE_FALSE,
            options: [
              { text: 'Yes', correct: false },
              { text: 'No', correct: true },
            ],
          },
        ],
        'A true-or-false question has the answers True and False',
      ],
      [[{ ...MULTIPLE, options: MULTIPLE.options.map((o) => ({ ...o, correct: false })) }], 'Mark at least one answer as right'],
      [[], 'A quiz needs at least one question'],
    ];
    for (const [questions, message] of cases) {
      const refused = await request('PUT', `/api/admin/lessons/${lessonId}/quiz`, staff, { pass_percent: 70, questions });
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().detail).toContain(message);
    }
    // Nothing was saved: the quiz still has no questions.
    expect(await t.db.select().from(quizQuestions).where(eq(quizQuestions.lessonId, lessonId))).toEqual([]);
  });

  it('refuses a question or an answer sent twice in one save, keeping the quiz as it was', async () => {
    const { lessonId, quiz } = await quizCourse();
    const [single, multiple] = quiz.questions;
    const answerTwice = {
      ...single!,
      options: [
        { ...single!.options[0]!, correct: true },
        { ...single!.options[0]!, text: 'The deed', correct: false },
      ],
    };
    // Each passes the question's own checks (two answers, one right), but saved as sent, the first
    // would keep one answer and none right, and the second would lose a question.
    for (const questions of [
      [answerTwice, multiple],
      [single, multiple, multiple],
    ]) {
      const refused = await request('PUT', `/api/admin/lessons/${lessonId}/quiz`, staff, { pass_percent: 70, questions });
      expect(refused.statusCode, refused.body).toBe(400);
    }
    expect((await request('GET', `/api/admin/lessons/${lessonId}/quiz`, staff)).json()).toEqual(quiz);
  });

  it("refuses another quiz's question sent as one of this quiz's", async () => {
    const other = await quizCourse();
    const courseId = await newCourse();
    const lessonId = await addLesson(courseId, quizLesson());
    const taken = other.quiz.questions[0]!;
    const refused = await request('PUT', `/api/admin/lessons/${lessonId}/quiz`, staff, { pass_percent: 70, questions: [taken] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toBe("Question 1 is not one of this quiz's questions");
    // The other quiz keeps its question.
    const [row] = await t.db.select().from(quizQuestions).where(eq(quizQuestions.id, taken.id));
    expect(row!.lessonId).toBe(other.lessonId);
  });

  it('keeps a lesson the kind it was added as, and a quiz without a video or a free preview', async () => {
    const courseId = await newCourse();
    for (const lesson of [
      { ...quizLesson(), video_url: 'https://videos.example.com/quiz' },
      { ...quizLesson(), free_preview: true },
    ]) {
      const refused = await request('POST', `/api/admin/courses/${courseId}/lessons`, staff, lesson);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().detail).toContain('A quiz has no video and is no free preview');
    }
    const lessonId = await addLesson(courseId, quizLesson());
    const changed = await request('PUT', `/api/admin/lessons/${lessonId}`, staff, { ...VIDEO_LESSON, kind: 'video' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().detail).toContain('A lesson stays the kind it was added as');
    const videoId = await addLesson(courseId, VIDEO_LESSON);
    expect((await request('PUT', `/api/admin/lessons/${videoId}`, staff, quizLesson())).statusCode).toBe(409);
  });

  it('keeps a question sent back with its id, with its results, and removes one left out', async () => {
    const { lessonId, quiz } = await quizCourse();
    const member = await t.loginAs('bronze');
    await submit(member, (await startTry(member, lessonId)).id, allRight(quiz));
    const [kept, dropped, alsoKept] = quiz.questions;

    const newQuestion = { ...SINGLE, prompt: 'Who pays for the home inspection?', options: [...SINGLE.options] };
    const resaved = await saveQuiz(lessonId, {
      pass_percent: 70,
      questions: [{ ...kept!, prompt: 'Which report lists the comparable sales?' }, alsoKept, newQuestion],
    });
    expect(resaved.questions.map((q) => q.id).slice(0, 2)).toEqual([kept!.id, alsoKept!.id]);
    expect(resaved.questions[0]!.prompt).toBe('Which report lists the comparable sales?');
    expect(resaved.questions[0]!.options.map((o) => o.id)).toEqual(kept!.options.map((o) => o.id));
    expect(resaved.questions[2]!.id).not.toBe(dropped!.id);
    expect(resaved.questions.map((q) => q.id)).not.toContain(dropped!.id);
    expect(await t.db.select().from(quizQuestions).where(eq(quizQuestions.id, dropped!.id))).toEqual([]);

    const results = (await request('GET', `/api/admin/lessons/${lessonId}/quiz/results`, staff)).json() as QuizResults;
    expect(results.questions.map((q) => q.id)).toEqual(resaved.questions.map((q) => q.id));
    expect(results.questions.map((q) => q.answered)).toEqual([1, 1, 0]);
    expect(results.questions[0]!.right_percent).toBe(100);
  });

  it('counts tries, members, passes and how often each answer was chosen', async () => {
    const { lessonId, quiz } = await quizCourse({ pass_percent: 100 });
    const [first, second] = [await t.loginAs('bronze'), await t.loginAs('bronze')];
    const third = await t.loginAs('bronze');
    const [single, multiple, trueFalse] = quiz.questions;
    const mixed: Answer[] = [
      { question_id: single!.id, option_ids: rightIds(single!) },
      { question_id: multiple!.id, option_ids: [rightIds(multiple!)[0]!, wrongIds(multiple!)[1]!] },
      { question_id: trueFalse!.id, option_ids: wrongIds(trueFalse!) },
    ];
    // Four tries of three members: the first fails then passes, the second fails, the third passes.
    const tries: [MemberLogin, Answer[]][] = [
      [first, allWrong(quiz)],
      [first, allRight(quiz)],
      [second, mixed],
      [third, allRight(quiz)],
    ];
    for (const [who, answers] of tries) await submit(who, (await startTry(who, lessonId)).id, answers);
    // A try still open counts nowhere.
    await startTry(await t.loginAs('bronze'), lessonId);

    const answer = await request('GET', `/api/admin/lessons/${lessonId}/quiz/results`, staff);
    expect(answer.statusCode).toBe(200);
    const results = answer.json() as QuizResults;
    expect(results).toMatchObject({ lesson_id: lessonId, attempts: 4, members: 3, members_passed: 2, pass_rate: 50 });

    const chosen = new Map<string, number>();
    for (const [, answers] of tries) for (const id of answers.flatMap((a) => a.option_ids)) chosen.set(id, (chosen.get(id) ?? 0) + 1);
    for (const question of quiz.questions) {
      const counted = results.questions.find((q) => q.id === question.id)!;
      expect(counted.answered).toBe(4);
      expect(counted.options.map((o) => [o.text, o.chosen])).toEqual(question.options.map((o) => [o.text, chosen.get(o.id) ?? 0]));
    }
    // Right in the two passing tries, and the single-answer question also in the mixed one.
    expect(results.questions.map((q) => q.right_percent)).toEqual([75, 50, 50]);
  });
});
