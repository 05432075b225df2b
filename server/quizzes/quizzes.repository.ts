import { and, asc, desc, eq, getTableColumns, inArray, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import type { DatabaseOrTransaction } from '../../db/client.ts';
import { quizAnswers, quizAttempts, quizOptions, quizQuestions, quizzes, type QuizLayoutEntry } from '../../db/schema.ts';
import type { QuestionKind } from '../../common/quizzes.contract.ts';

export type { QuizLayoutEntry };

export interface QuizRules {
  passPercent: number;
  maxAttempts: number | null;
  waitMinutes: number;
  timeLimitMinutes: number | null;
}

export interface QuizQuestion {
  id: string;
  kind: QuestionKind;
  prompt: string;
  explanation: string;
  options: { id: string; text: string; correct: boolean }[];
}

/** A question as staff save it: an id to keep one (and its results), none for a new one. */
export interface SavedQuestion {
  id?: string;
  kind: QuestionKind;
  prompt: string;
  explanation: string;
  options: { id?: string; text: string; correct: boolean }[];
}

export type AttemptRow = typeof quizAttempts.$inferSelect;

export function createQuizzesRepository(db: DatabaseOrTransaction) {
  return {
    async findRules(lessonId: string): Promise<QuizRules | null> {
      const [row] = await db.select().from(quizzes).where(eq(quizzes.lessonId, lessonId));
      return row ?? null;
    },

    /** The quiz's questions in order, each with its answers in order. */
    async questions(lessonId: string): Promise<QuizQuestion[]> {
      const rows = await db
        .select({
          id: quizQuestions.id,
          kind: quizQuestions.kind,
          prompt: quizQuestions.prompt,
          explanation: quizQuestions.explanation,
          optionId: quizOptions.id,
          optionText: quizOptions.text,
          correct: quizOptions.correct,
        })
        .from(quizQuestions)
        .innerJoin(quizOptions, eq(quizOptions.questionId, quizQuestions.id))
        .where(eq(quizQuestions.lessonId, lessonId))
        .orderBy(asc(quizQuestions.position), asc(quizOptions.position));
      const byId = new Map<string, QuizQuestion>();
      for (const row of rows) {
        const question = byId.get(row.id) ?? { id: row.id, kind: row.kind, prompt: row.prompt, explanation: row.explanation, options: [] };
        question.options.push({ id: row.optionId, text: row.optionText, correct: row.correct });
        byId.set(row.id, question);
      }
      return [...byId.values()];
    },

    /**
     * Saves the rules and the questions as given: questions and answers named by id are kept (and
     * their results with them), the others are new, and those left out go with their results.
     */
    async save(lessonId: string, rules: QuizRules, saved: SavedQuestion[]): Promise<void> {
      await db
        .insert(quizzes)
        .values({ lessonId, ...rules })
        .onConflictDoUpdate({ target: quizzes.lessonId, set: { ...rules, updatedAt: sql`now()` } });
      const existing = await db.select({ id: quizQuestions.id }).from(quizQuestions).where(eq(quizQuestions.lessonId, lessonId));
      const keptIds = new Set(saved.flatMap((question) => (question.id ? [question.id] : [])));
      const gone = existing.map((row) => row.id).filter((id) => !keptIds.has(id));
      if (gone.length > 0) await db.delete(quizQuestions).where(inArray(quizQuestions.id, gone));
      for (const [position, question] of saved.entries()) {
        const values = { lessonId, position, kind: question.kind, prompt: question.prompt, explanation: question.explanation };
        const questionId = question.id
          ? (await db.update(quizQuestions).set(values).where(eq(quizQuestions.id, question.id)), question.id)
          : (await db.insert(quizQuestions).values(values).returning({ id: quizQuestions.id }))[0]!.id;
        const keptOptions = question.options.flatMap((option) => (option.id ? [option.id] : []));
        await db
          .delete(quizOptions)
          .where(and(eq(quizOptions.questionId, questionId), keptOptions.length > 0 ? notInArray(quizOptions.id, keptOptions) : undefined));
        for (const [optionPosition, option] of question.options.entries()) {
          const optionValues = { questionId, position: optionPosition, text: option.text, correct: option.correct };
          if (option.id) await db.update(quizOptions).set(optionValues).where(eq(quizOptions.id, option.id));
          else await db.insert(quizOptions).values(optionValues);
        }
      }
    },

    /** Which of these question ids belong to the quiz, and which answer ids to each (a save must not take another quiz's). */
    async ownedIds(lessonId: string): Promise<{ questions: Set<string>; options: Map<string, string> }> {
      const rows = await db
        .select({ questionId: quizQuestions.id, optionId: quizOptions.id })
        .from(quizQuestions)
        .leftJoin(quizOptions, eq(quizOptions.questionId, quizQuestions.id))
        .where(eq(quizQuestions.lessonId, lessonId));
      const options = new Map<string, string>();
      for (const row of rows) if (row.optionId) options.set(row.optionId, row.questionId);
      return { questions: new Set(rows.map((row) => row.questionId)), options };
    },

    /** Holds the member's row for this quiz's tries until the transaction ends: starts and sends are counted one at a time. */
    async lockTries(memberId: string, lessonId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`quiz:${memberId}:${lessonId}`}))`);
    },

    async openAttempt(memberId: string, lessonId: string): Promise<AttemptRow | null> {
      const [row] = await db
        .select()
        .from(quizAttempts)
        .where(and(eq(quizAttempts.memberId, memberId), eq(quizAttempts.lessonId, lessonId), isNull(quizAttempts.submittedAt)));
      return row ?? null;
    },

    async attempt(attemptId: string): Promise<AttemptRow | null> {
      const [row] = await db.select().from(quizAttempts).where(eq(quizAttempts.id, attemptId));
      return row ?? null;
    },

    /** The member's scored tries at this quiz: how many, the best score, whether one passed, the latest. */
    async triesOf(memberId: string, lessonId: string) {
      const [totals] = await db
        .select({
          used: sql<number>`count(*)::int`,
          best: sql<number | null>`max(${quizAttempts.scorePercent})`,
          passed: sql<boolean>`coalesce(bool_or(${quizAttempts.passed}), false)`,
        })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.memberId, memberId), eq(quizAttempts.lessonId, lessonId), isNotNull(quizAttempts.submittedAt)));
      const [latest] = await db
        .select()
        .from(quizAttempts)
        .where(and(eq(quizAttempts.memberId, memberId), eq(quizAttempts.lessonId, lessonId), isNotNull(quizAttempts.submittedAt)))
        .orderBy(desc(quizAttempts.submittedAt))
        .limit(1);
      return { used: totals?.used ?? 0, best: totals?.best ?? null, passed: totals?.passed ?? false, latest: latest ?? null };
    },

    async startAttempt(values: {
      memberId: string;
      lessonId: string;
      layout: QuizLayoutEntry[];
      deadline: Date | null;
    }): Promise<AttemptRow> {
      const [row] = await db.insert(quizAttempts).values(values).returning();
      return row!;
    },

    /** Scores the try once: the one update that finds it unscored wins; null when another got there first. */
    async score(
      attemptId: string,
      scored: { scorePercent: number; passed: boolean; timedOut: boolean },
      answers: { questionId: string; optionIds: string[]; right: boolean }[],
    ): Promise<AttemptRow | null> {
      const [row] = await db
        .update(quizAttempts)
        .set({ ...scored, submittedAt: sql`now()` })
        .where(and(eq(quizAttempts.id, attemptId), isNull(quizAttempts.submittedAt)))
        .returning();
      if (!row) return null;
      if (answers.length > 0) await db.insert(quizAnswers).values(answers.map((answer) => ({ attemptId, ...answer })));
      return row;
    },

    async answersOf(attemptId: string): Promise<Map<string, string[]>> {
      const rows = await db
        .select({ questionId: quizAnswers.questionId, optionIds: quizAnswers.optionIds })
        .from(quizAnswers)
        .where(eq(quizAnswers.attemptId, attemptId));
      return new Map(rows.map((row) => [row.questionId, row.optionIds]));
    },

    /** The member's scored tries, oldest first, after `after` (a page of their data's download), with their answers. */
    async triesPage(memberId: string, limit: number, after?: { startedAt: string; id: string }) {
      const tries = await db
        .select({ ...getTableColumns(quizAttempts), startedKey: sql<string>`${quizAttempts.startedAt}::text` })
        .from(quizAttempts)
        .where(
          and(
            eq(quizAttempts.memberId, memberId),
            isNotNull(quizAttempts.submittedAt),
            after ? sql`(${quizAttempts.startedAt}, ${quizAttempts.id}) > (${after.startedAt}::timestamptz, ${after.id})` : undefined,
          ),
        )
        .orderBy(asc(quizAttempts.startedAt), asc(quizAttempts.id))
        .limit(limit);
      const answers =
        tries.length === 0
          ? []
          : await db
              .select()
              .from(quizAnswers)
              .where(
                inArray(
                  quizAnswers.attemptId,
                  tries.map((row) => row.id),
                ),
              );
      return tries.map((row) => ({ ...row, answers: answers.filter((answer) => answer.attemptId === row.id) }));
    },

    /** The member's best passing score of each of these quizzes (for a certificate that states it). */
    async bestPassingScores(memberId: string, lessonIds: string[]): Promise<number[]> {
      if (lessonIds.length === 0) return [];
      const rows = await db
        .select({ best: sql<number>`max(${quizAttempts.scorePercent})` })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.memberId, memberId), inArray(quizAttempts.lessonId, lessonIds), eq(quizAttempts.passed, true)))
        .groupBy(quizAttempts.lessonId);
      return rows.map((row) => row.best);
    },

    /** How members did, counted by the database: tries, members, passes, and how often each answer was chosen. */
    async results(lessonId: string) {
      const [totals] = await db
        .select({
          attempts: sql<number>`count(*)::int`,
          members: sql<number>`count(distinct ${quizAttempts.memberId})::int`,
          membersPassed: sql<number>`count(distinct ${quizAttempts.memberId}) filter (where ${quizAttempts.passed})::int`,
          passedAttempts: sql<number>`count(*) filter (where ${quizAttempts.passed})::int`,
        })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.lessonId, lessonId), isNotNull(quizAttempts.submittedAt)));
      const perQuestion = await db
        .select({
          questionId: quizAnswers.questionId,
          answered: sql<number>`count(*)::int`,
          right: sql<number>`count(*) filter (where ${quizAnswers.right})::int`,
        })
        .from(quizAnswers)
        .innerJoin(quizQuestions, eq(quizQuestions.id, quizAnswers.questionId))
        .where(eq(quizQuestions.lessonId, lessonId))
        .groupBy(quizAnswers.questionId);
      const perOption = (await db.execute(
        sql`select chosen.option_id, count(*)::int as chosen
            from ${quizAnswers} join ${quizQuestions} on ${quizQuestions.id} = ${quizAnswers.questionId},
            unnest(${quizAnswers.optionIds}) as chosen(option_id)
            where ${quizQuestions.lessonId} = ${lessonId}
            group by chosen.option_id`,
      )) as unknown as { rows: { option_id: string; chosen: number }[] };
      return {
        attempts: totals?.attempts ?? 0,
        members: totals?.members ?? 0,
        membersPassed: totals?.membersPassed ?? 0,
        passedAttempts: totals?.passedAttempts ?? 0,
        perQuestion: new Map(perQuestion.map((row) => [row.questionId, row])),
        perOption: new Map(perOption.rows.map((row) => [String(row.option_id), Number(row.chosen)])),
      };
    },
  };
}
