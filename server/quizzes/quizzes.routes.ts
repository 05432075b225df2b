import { LessonParams } from '../../common/courses.contract.ts';
import {
  AttemptParams,
  QuizAnswersInput,
  QuizAttempt,
  QuizInput,
  QuizResults,
  QuizSummary,
  ScoredAttempt,
  StaffQuiz,
} from '../../common/quizzes.contract.ts';
import { withErrors, type ZodApp } from '../http/zod.ts';

/** A quiz lesson: members take it a try at a time; staff write it and read how members did. */
export async function quizzesRoutes(app: ZodApp) {
  const { quizzes, quizAuthoring } = app.services;
  const member = { access: 'member' } as const;
  const staff = { access: 'staff' } as const;

  app.get(
    '/api/lessons/:id/quiz',
    { config: member, schema: { params: LessonParams, response: withErrors({ 200: QuizSummary }) } },
    async (request) => quizzes.summary(await request.viewer(), request.params.id),
  );

  // A new try, or the one in progress: its questions, without which answers are right.
  app.post(
    '/api/lessons/:id/quiz/attempts',
    { config: member, schema: { params: LessonParams, response: withErrors({ 200: QuizAttempt }) } },
    async (request) => quizzes.start(await request.viewer(), request.params.id),
  );

  // The try's answers, scored on the server: the result with the right answers, and the course's progress.
  app.post(
    '/api/quiz-attempts/:id/answers',
    { config: member, schema: { params: AttemptParams, body: QuizAnswersInput, response: withErrors({ 200: ScoredAttempt }) } },
    async (request) => quizzes.submit(await request.viewer(), request.params.id, request.body),
  );

  app.get(
    '/api/admin/lessons/:id/quiz',
    { config: staff, schema: { params: LessonParams, response: withErrors({ 200: StaffQuiz }) } },
    async (request) => quizAuthoring.get(await request.viewer(), request.params.id),
  );

  app.put(
    '/api/admin/lessons/:id/quiz',
    { config: staff, schema: { params: LessonParams, body: QuizInput, response: withErrors({ 200: StaffQuiz }) } },
    async (request) => quizAuthoring.save(await request.viewer(), request.params.id, request.body),
  );

  app.get(
    '/api/admin/lessons/:id/quiz/results',
    { config: staff, schema: { params: LessonParams, response: withErrors({ 200: QuizResults }) } },
    async (request) => quizAuthoring.results(await request.viewer(), request.params.id),
  );
}
