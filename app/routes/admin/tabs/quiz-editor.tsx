import { useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { z } from 'zod';
import { CourseParams, LessonParams } from '../../../../common/courses.contract.ts';
import { QUIZ } from '../../../../common/limits.ts';
import {
  QUESTION_KIND_LABEL,
  QUESTION_KINDS,
  QuizInput,
  TRUE_FALSE_OPTIONS,
  type QuestionKind,
  type QuizResults,
  type StaffQuiz,
} from '../../../../common/quizzes.contract.ts';
import { Outcome } from '../../../components/admin/outcome.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Select, Textarea } from '../../../components/ui/field.tsx';
import { attempt, formErrors, readForm, unreadableForm } from '../../../lib/forms.ts';
import { staffPageServices } from '../../../lib/page-context.ts';
import type { Route } from './+types/quiz-editor';

const Params = z.object({ courseId: CourseParams.shape.id, lessonId: LessonParams.shape.id });

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, viewer } = staffPageServices(context);
  const ids = Params.safeParse(params);
  if (!ids.success) throw new Response('Quiz not found', { status: 404 });
  const [course, quiz, results] = await Promise.all([
    attempt(() => services.courseAuthoring.get(viewer, ids.data.courseId)),
    attempt(() => services.quizAuthoring.get(viewer, ids.data.lessonId)),
    attempt(() => services.quizAuthoring.results(viewer, ids.data.lessonId)),
  ]);
  if (!course.ok) throw new Response(course.message, { status: course.status });
  if (!quiz.ok) throw new Response(quiz.message, { status: quiz.status });
  if (!results.ok) throw new Response(results.message, { status: results.status });
  const lesson = course.value.lessons.find((each) => each.id === ids.data.lessonId);
  if (!lesson) throw new Response('Quiz not found', { status: 404 });
  return { course: course.value.course, lesson, quiz: quiz.value, results: results.value };
}

/** A refusal of the quiz's contract, naming the question it is about ('Question 2: ...'). */
function quizRefusal(error: z.ZodError) {
  const issue = error.issues[0];
  if (!issue) return formErrors('Please check the quiz.');
  const [field, index] = issue.path;
  return formErrors(field === 'questions' && typeof index === 'number' ? `Question ${index + 1}: ${issue.message}` : issue.message);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { services, viewer } = staffPageServices(context);
  const ids = Params.safeParse(params);
  const form = await readForm(request);
  if (!form || !ids.success) return unreadableForm();
  let sent: unknown;
  try {
    sent = JSON.parse(String(form.get('quiz') ?? ''));
  } catch {
    return unreadableForm();
  }
  const input = QuizInput.safeParse(sent);
  if (!input.success) return quizRefusal(input.error);
  const saved = await attempt(() => services.quizAuthoring.save(viewer, ids.data.lessonId, input.data));
  return saved.ok ? { ok: true as const, message: 'Quiz saved.' } : saved.refusal;
}

interface DraftOption {
  id?: string;
  text: string;
  correct: boolean;
}
interface DraftQuestion {
  /** The page's own key for the question (a new one has no id yet). */
  key: string;
  id?: string;
  kind: QuestionKind;
  prompt: string;
  explanation: string;
  options: DraftOption[];
}

let nextKey = 0;
const newKey = () => `new-${++nextKey}`;
const trueFalse = (right: 'True' | 'False' = 'True'): DraftOption[] =>
  TRUE_FALSE_OPTIONS.map((text) => ({ text, correct: text === right }));
const blankQuestion = (): DraftQuestion => ({
  key: newKey(),
  kind: 'single',
  prompt: '',
  explanation: '',
  options: [
    { text: '', correct: true },
    { text: '', correct: false },
  ],
});

/** An empty number field means none (no limit); otherwise the number. */
const numberOrNull = (value: string) => (value.trim() === '' ? null : Number(value));

function QuestionEditor({
  question,
  index,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  question: DraftQuestion;
  index: number;
  count: number;
  onChange: (question: DraftQuestion) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const label = `Question ${index + 1}`;
  const setOption = (at: number, change: Partial<DraftOption>) =>
    onChange({
      ...question,
      options: question.options.map((option, each) =>
        // One right answer for one-answer and true-or-false questions: choosing one unchooses the others.
        each === at ? { ...option, ...change } : change.correct && question.kind !== 'multiple' ? { ...option, correct: false } : option,
      ),
    });
  const changeKind = (kind: QuestionKind) =>
    onChange({
      ...question,
      kind,
      options:
        kind === 'true_false'
          ? trueFalse()
          : question.kind === 'true_false'
            ? [
                { text: '', correct: true },
                { text: '', correct: false },
              ]
            : question.options,
    });
  return (
    <fieldset className="rounded-xl border border-gray-200 bg-white p-4" data-question={index + 1}>
      <legend className="px-1 font-semibold text-gray-900">{label}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          compact
          label={`${label}: kind`}
          value={question.kind}
          onChange={(event) => changeKind(event.currentTarget.value as QuestionKind)}
          options={QUESTION_KINDS.map((kind) => ({ value: kind, label: QUESTION_KIND_LABEL[kind] }))}
        />
        <Textarea
          compact
          label={`${label}: the question`}
          value={question.prompt}
          onChange={(event) => onChange({ ...question, prompt: event.currentTarget.value })}
          rows={2}
          maxLength={QUIZ.promptMax}
          required
          className="sm:col-span-2"
        />
      </div>
      <p className="mt-3 text-sm font-medium text-gray-700">
        Answers ({question.kind === 'multiple' ? 'tick every right one' : 'tick the right one'})
      </p>
      <ul className="mt-1 space-y-2">
        {question.options.map((option, at) => (
          <li key={option.id ?? `${question.key}-${at}`} className="flex flex-wrap items-end gap-2">
            <label className="flex min-h-11 items-center gap-2 text-sm text-gray-700">
              <input
                type={question.kind === 'multiple' ? 'checkbox' : 'radio'}
                name={`${question.key}-right`}
                checked={option.correct}
                onChange={(event) => setOption(at, { correct: event.currentTarget.checked })}
                className="h-5 w-5"
                aria-label={`${label}, answer ${at + 1} is right`}
              />
              Right
            </label>
            {question.kind === 'true_false' ? (
              <span className="min-h-11 py-2 font-semibold text-gray-900">{option.text}</span>
            ) : (
              <Input
                compact
                label={`${label}, answer ${at + 1}`}
                value={option.text}
                onChange={(event) => setOption(at, { text: event.currentTarget.value })}
                maxLength={QUIZ.optionMax}
                required
                className="min-w-0 flex-1"
              />
            )}
            {question.kind !== 'true_false' && question.options.length > 2 && (
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove answer ${at + 1} of ${label.toLowerCase()}`}
                onClick={() => onChange({ ...question, options: question.options.filter((_, each) => each !== at) })}
              >
                Remove
              </Button>
            )}
          </li>
        ))}
      </ul>
      {question.kind !== 'true_false' && question.options.length < QUIZ.maxOptions && (
        <Button
          variant="outline"
          size="sm"
          className="mt-2"
          aria-label={`Add an answer to ${label.toLowerCase()}`}
          onClick={() => onChange({ ...question, options: [...question.options, { text: '', correct: false }] })}
        >
          Add an answer
        </Button>
      )}
      <Textarea
        compact
        label={`${label}: explanation, shown once answered (optional)`}
        value={question.explanation}
        onChange={(event) => onChange({ ...question, explanation: event.currentTarget.value })}
        rows={2}
        maxLength={QUIZ.explanationMax}
        className="mt-3"
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={index === 0}
          onClick={() => onMove(-1)}
          aria-label={`Move up: ${label.toLowerCase()}`}
        >
          Move up
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`Move down: ${label.toLowerCase()}`}
        >
          Move down
        </Button>
        <Button variant="outline" size="sm" onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`}>
          Remove question
        </Button>
      </div>
    </fieldset>
  );
}

/** What members chose: to find a question worded so that many pick the same wrong answer. */
function ResultsTable({ results }: { results: QuizResults }) {
  return (
    <div className="rounded-2xl bg-white p-4 sm:p-6">
      <h3 className="text-lg font-bold text-gray-900">How members did</h3>
      <p className="mt-1 text-sm text-gray-700" data-testid="quiz-results-summary">
        {results.attempts} {results.attempts === 1 ? 'try' : 'tries'} by {results.members} {results.members === 1 ? 'member' : 'members'},{' '}
        {results.members_passed} passed · pass rate {results.pass_rate}% of tries
      </p>
      {results.questions.map((question, index) => (
        <div key={question.id} className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="text-left font-semibold text-gray-900">
              Question {index + 1}: {question.prompt} ({question.right_percent}% right of {question.answered})
            </caption>
            <thead>
              <tr className="text-gray-600">
                <th scope="col" className="py-1 pr-4 font-medium">
                  Answer
                </th>
                <th scope="col" className="py-1 pr-4 font-medium">
                  Right
                </th>
                <th scope="col" className="py-1 font-medium">
                  Chosen
                </th>
              </tr>
            </thead>
            <tbody>
              {question.options.map((option) => (
                <tr key={option.id} className="border-t border-gray-100">
                  <td className="py-1 pr-4">{option.text}</td>
                  <td className="py-1 pr-4">{option.correct ? 'Yes' : 'No'}</td>
                  <td className="py-1">{option.chosen}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

const draftOf = (quiz: StaffQuiz): DraftQuestion[] =>
  quiz.questions.map((question) => ({ key: question.id, ...question, options: question.options.map((option) => ({ ...option })) }));

/** A quiz lesson's questions and rules, and how members did (the Courses tab). */
export default function QuizEditor({ loaderData }: Route.ComponentProps) {
  const { course, lesson, quiz, results } = loaderData;
  const saving = useFetcher<typeof action>();
  const [questions, setQuestions] = useState<DraftQuestion[]>(() => (quiz.questions.length > 0 ? draftOf(quiz) : [blankQuestion()]));
  const [rules, setRules] = useState({
    pass_percent: String(quiz.pass_percent),
    max_attempts: quiz.max_attempts === null ? '' : String(quiz.max_attempts),
    wait_minutes: String(quiz.wait_minutes),
    time_limit_minutes: quiz.time_limit_minutes === null ? '' : String(quiz.time_limit_minutes),
  });
  const replace = (at: number, question: DraftQuestion) =>
    setQuestions((all) => all.map((each, index) => (index === at ? question : each)));
  const move = (at: number, by: number) =>
    setQuestions((all) => {
      const order = [...all];
      [order[at], order[at + by]] = [order[at + by]!, order[at]!];
      return order;
    });
  const save = () => {
    const input = {
      pass_percent: Number(rules.pass_percent),
      max_attempts: numberOrNull(rules.max_attempts),
      wait_minutes: Number(rules.wait_minutes || 0),
      time_limit_minutes: numberOrNull(rules.time_limit_minutes),
      questions: questions.map(({ id, kind, prompt, explanation, options }) => ({ ...(id && { id }), kind, prompt, explanation, options })),
    };
    void saving.submit({ quiz: JSON.stringify(input) }, { method: 'post' });
  };
  const rule = (name: keyof typeof rules, label: string, props: { min: number; max: number; placeholder?: string }) => (
    <Input
      compact
      type="number"
      label={label}
      value={rules[name]}
      onChange={(event) => setRules({ ...rules, [name]: event.currentTarget.value })}
      {...props}
    />
  );
  return (
    <section className="space-y-6">
      <Link
        to={`/admin/dashboard/courses/${course.id}`}
        className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-800 hover:text-brand-600"
      >
        ← {course.title}
      </Link>
      <h2 className="text-xl font-bold text-gray-900">Quiz: {lesson.title}</h2>
      <div className="rounded-2xl bg-white p-4 sm:p-6">
        <h3 className="text-lg font-bold text-gray-900">Rules</h3>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {rule('pass_percent', 'Pass mark (% of questions right)', { min: 1, max: 100 })}
          {rule('max_attempts', 'Tries allowed (empty: no limit)', { min: 1, max: QUIZ.maxAttempts })}
          {rule('wait_minutes', 'Wait between tries, in minutes', { min: 0, max: QUIZ.maxWaitMinutes })}
          {rule('time_limit_minutes', 'Time limit, in minutes (empty: none)', { min: 1, max: QUIZ.maxTimeLimitMinutes })}
        </div>
        <p className="mt-2 text-xs text-gray-500">
          Each try shows the questions and their answers in a new order. Passing the quiz completes the lesson; the course&apos;s
          certificate waits until every quiz of it is passed.
        </p>
      </div>
      <div className="space-y-4">
        {questions.map((question, index) => (
          <QuestionEditor
            key={question.key}
            question={question}
            index={index}
            count={questions.length}
            onChange={(changed) => replace(index, changed)}
            onMove={(by) => move(index, by)}
            onRemove={() => setQuestions((all) => all.filter((_, each) => each !== index))}
          />
        ))}
        {questions.length < QUIZ.maxQuestions && (
          <Button variant="outline" onClick={() => setQuestions((all) => [...all, blankQuestion()])}>
            Add a question
          </Button>
        )}
      </div>
      <div className="space-y-2">
        <Outcome answer={saving.data} />
        <Button onClick={save} disabled={saving.state !== 'idle'}>
          {saving.state !== 'idle' ? 'Saving...' : 'Save quiz'}
        </Button>
      </div>
      <ResultsTable results={results} />
    </section>
  );
}
