import { badRequest, notFound } from '../../common/errors.ts';
import { requireStaffArea } from '../../common/policies.ts';
import { QUIZ_NOT_FOUND, type QuizAuthoringService, type QuizInput, type StaffQuiz } from '../../common/quizzes.contract.ts';
import type { Viewer } from '../../common/viewer.ts';
import type { DataAccess } from '../repositories.ts';

const LESSON_NOT_FOUND = 'Lesson not found';
/** The rules a quiz lesson starts with, before staff save its own. */
const NEW_QUIZ = { passPercent: 70, maxAttempts: null, waitMinutes: 0, timeLimitMinutes: null };

const percentOf = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((100 * part) / whole));

/** Staff write a quiz lesson's questions and rules, and see how members did (the Courses tab). */
export function createQuizAuthoringService(data: DataAccess): QuizAuthoringService {
  async function quizLesson(viewer: Viewer, lessonId: string) {
    const staff = requireStaffArea(viewer, 'content');
    const lesson = await data.learning.findLesson(lessonId);
    if (!lesson) throw notFound(LESSON_NOT_FOUND);
    if (lesson.kind !== 'quiz') throw notFound(QUIZ_NOT_FOUND);
    return staff;
  }

  async function staffQuiz(lessonId: string): Promise<StaffQuiz> {
    const [rules, questions] = await Promise.all([data.quizzes.findRules(lessonId), data.quizzes.questions(lessonId)]);
    const { passPercent, maxAttempts, waitMinutes, timeLimitMinutes } = rules ?? NEW_QUIZ;
    return {
      lesson_id: lessonId,
      pass_percent: passPercent,
      max_attempts: maxAttempts,
      wait_minutes: waitMinutes,
      time_limit_minutes: timeLimitMinutes,
      questions,
    };
  }

  /** A question or an answer named by id must be this quiz's own (and an answer, its question's). */
  async function refuseOthersIds(lessonId: string, input: QuizInput) {
    const owned = await data.quizzes.ownedIds(lessonId);
    for (const [index, question] of input.questions.entries()) {
      if (question.id && !owned.questions.has(question.id)) throw badRequest(`Question ${index + 1} is not one of this quiz's questions`);
      for (const option of question.options) {
        if (option.id && (!question.id || owned.options.get(option.id) !== question.id))
          throw badRequest(`An answer of question ${index + 1} is not one of its answers`);
      }
    }
  }

  return {
    async get(viewer, lessonId) {
      await quizLesson(viewer, lessonId);
      return staffQuiz(lessonId);
    },

    async save(viewer, lessonId, input) {
      const staff = await quizLesson(viewer, lessonId);
      await refuseOthersIds(lessonId, input);
      const before = await staffQuiz(lessonId);
      await data.transaction(async (tx) => {
        await tx.quizzes.save(
          lessonId,
          {
            passPercent: input.pass_percent,
            maxAttempts: input.max_attempts,
            waitMinutes: input.wait_minutes,
            timeLimitMinutes: input.time_limit_minutes,
          },
          input.questions,
        );
        await tx.audit.record({ actorEmail: staff.email, action: 'course.quiz', target: lessonId, oldValue: before, newValue: input });
      });
      return staffQuiz(lessonId);
    },

    async results(viewer, lessonId) {
      await quizLesson(viewer, lessonId);
      const [questions, counted] = await Promise.all([data.quizzes.questions(lessonId), data.quizzes.results(lessonId)]);
      return {
        lesson_id: lessonId,
        attempts: counted.attempts,
        members: counted.members,
        members_passed: counted.membersPassed,
        pass_rate: percentOf(counted.passedAttempts, counted.attempts),
        questions: questions.map((question) => {
          const answered = counted.perQuestion.get(question.id);
          return {
            id: question.id,
            prompt: question.prompt,
            answered: answered?.answered ?? 0,
            right_percent: percentOf(answered?.right ?? 0, answered?.answered ?? 0),
            options: question.options.map((option) => ({ ...option, chosen: counted.perOption.get(option.id) ?? 0 })),
          };
        }),
      };
    },
  };
}
