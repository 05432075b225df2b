import { useEffect, useState } from 'react';
import type { Lesson } from '../../../common/courses.contract.ts';
import type { CourseProgress } from '../../../common/learning.contract.ts';
import type { QuizAttempt, QuizAttemptResult, QuizSummary, ScoredAttempt } from '../../../common/quizzes.contract.ts';
import { clockTime } from '../../lib/clock-time.ts';
import { Button } from '../ui/button.tsx';

/** The quiz API's answer, or its message when it refused (`{detail}`) or could not be reached. */
async function quizCall<T>(url: string, init?: RequestInit): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    const response = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init?.headers } });
    const body = (await response.json().catch(() => null)) as (T & { detail?: string }) | null;
    if (response.ok && body) return { ok: true, value: body };
    return { ok: false, message: body?.detail ?? 'The quiz could not be loaded. Please try again.' };
  } catch {
    return { ok: false, message: 'You seem to be offline: the quiz needs a connection. Please try again.' };
  }
}

/** '12:05' left until the deadline, counted down each second; null without a time limit. */
function useTimeLeft(deadline: string | null): string | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!deadline) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  if (!deadline) return null;
  const seconds = Math.max(0, Math.floor((new Date(deadline).getTime() - now) / 1000));
  return clockTime(seconds);
}

function rulesLine(summary: QuizSummary): string {
  const parts = [
    `${summary.question_count} ${summary.question_count === 1 ? 'question' : 'questions'}`,
    `pass mark ${summary.pass_percent}%`,
    summary.attempts_left === null
      ? 'as many tries as you like'
      : `${summary.attempts_left} ${summary.attempts_left === 1 ? 'try' : 'tries'} left`,
  ];
  if (summary.time_limit_minutes) parts.push(`${summary.time_limit_minutes} minutes a try`);
  return parts.join(' · ');
}

/** The questions of a try: one answer (radio buttons) or several (check boxes) each. */
function AttemptForm({ attempt, onScored }: { attempt: QuizAttempt; onScored: (scored: ScoredAttempt) => void }) {
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const timeLeft = useTimeLeft(attempt.deadline);
  const choose = (questionId: string, optionId: string, several: boolean, on: boolean) =>
    setChosen((all) => {
      const now = all[questionId] ?? [];
      return { ...all, [questionId]: several ? (on ? [...now, optionId] : now.filter((id) => id !== optionId)) : [optionId] };
    });
  const unanswered = attempt.questions.filter((question) => !(chosen[question.id]?.length ?? 0)).length;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSending(true);
        setProblem(null);
        const answers = attempt.questions.map((question) => ({ question_id: question.id, option_ids: chosen[question.id] ?? [] }));
        void quizCall<ScoredAttempt>(`/api/quiz-attempts/${attempt.id}/answers`, {
          method: 'POST',
          body: JSON.stringify({ answers }),
        }).then((answer) => {
          setSending(false);
          if (answer.ok) onScored(answer.value);
          else setProblem(answer.message);
        });
      }}
      className="space-y-5"
    >
      {timeLeft !== null && (
        <p className="text-sm font-semibold text-gray-800">
          Time left: <span role="timer">{timeLeft}</span>
        </p>
      )}
      {attempt.questions.map((question, index) => {
        const several = question.kind === 'multiple';
        return (
          <fieldset key={question.id} className="rounded-xl border border-gray-200 p-4">
            <legend className="px-1 font-semibold text-gray-900">
              {index + 1}. {question.prompt}
              {several && <span className="ml-1 text-sm font-normal text-gray-600">(choose every right answer)</span>}
            </legend>
            <div className="mt-2 space-y-1">
              {question.options.map((option) => (
                <label key={option.id} className="flex min-h-11 items-center gap-3 rounded-lg px-2 text-gray-800 hover:bg-gray-50">
                  <input
                    type={several ? 'checkbox' : 'radio'}
                    name={question.id}
                    value={option.id}
                    checked={chosen[question.id]?.includes(option.id) ?? false}
                    onChange={(event) => choose(question.id, option.id, several, event.currentTarget.checked)}
                    className="h-5 w-5 shrink-0"
                  />
                  <span>{option.text}</span>
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={sending}>
          {sending ? 'Sending...' : 'Send my answers'}
        </Button>
        {unanswered > 0 && (
          <span className="text-sm text-gray-600">
            {unanswered} {unanswered === 1 ? 'question' : 'questions'} not answered yet
          </span>
        )}
      </div>
    </form>
  );
}

/** A scored try: the score, and each question with the member's answers, the right ones and why. */
function AttemptResult({ result, passPercent }: { result: QuizAttemptResult; passPercent: number }) {
  return (
    <div className="space-y-4">
      <p role="status" className={`text-lg font-bold ${result.passed ? 'text-green-800' : 'text-brand-800'}`}>
        {result.timed_out
          ? `Time was up before your answers arrived: this try counts as ${result.score_percent}%.`
          : result.passed
            ? `You scored ${result.score_percent}%: passed!`
            : `You scored ${result.score_percent}%. The pass mark is ${passPercent}%.`}
      </p>
      <ol className="space-y-3">
        {result.questions.map((question, index) => (
          <li key={question.id} className="rounded-xl border border-gray-200 p-4">
            <p className="font-semibold text-gray-900">
              {index + 1}. {question.prompt}{' '}
              <span className={question.right ? 'text-green-700' : 'text-red-700'}>{question.right ? '✓ Right' : '✗ Not right'}</span>
            </p>
            <ul className="mt-2 space-y-1 text-sm">
              {question.options.map((option) => (
                <li key={option.id} className={option.correct ? 'font-semibold text-green-800' : 'text-gray-700'}>
                  {option.chosen ? 'Your answer: ' : ''}
                  {option.text}
                  {option.correct ? ' (right answer)' : ''}
                </li>
              ))}
            </ul>
            {question.explanation && <p className="mt-2 whitespace-pre-line text-sm text-gray-700">{question.explanation}</p>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * A quiz lesson in the player: what it asks, a try at a time, and each scored try with its
 * explanations. The server keeps the right answers until a try is sent, and scores it.
 */
export function QuizPanel({ lesson, onProgress }: { lesson: Lesson; onProgress: (progress: CourseProgress) => void }) {
  const [summary, setSummary] = useState<QuizSummary | null>(null);
  const [attempt, setAttempt] = useState<QuizAttempt | null>(null);
  const [result, setResult] = useState<QuizAttemptResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = () =>
    quizCall<QuizSummary>(`/api/lessons/${encodeURIComponent(lesson.id)}/quiz`).then((answer) => {
      if (!answer.ok) return setProblem(answer.message);
      setSummary(answer.value);
      setAttempt(answer.value.open_attempt);
      setResult(answer.value.open_attempt ? null : answer.value.last_result);
    });
  useEffect(() => {
    void load();
    // Loaded once per lesson: the player is keyed by it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const start = () => {
    setBusy(true);
    setProblem(null);
    void quizCall<QuizAttempt>(`/api/lessons/${encodeURIComponent(lesson.id)}/quiz/attempts`, { method: 'POST', body: '{}' }).then(
      (answer) => {
        setBusy(false);
        if (answer.ok) {
          setAttempt(answer.value);
          setResult(null);
        } else setProblem(answer.message);
      },
    );
  };

  if (!summary) {
    return problem ? (
      <p role="alert" className="text-red-700">
        {problem}
      </p>
    ) : (
      <p role="status" className="text-gray-600">
        Loading the quiz...
      </p>
    );
  }
  if (attempt) {
    return (
      <AttemptForm
        key={attempt.id}
        attempt={attempt}
        onScored={(scored) => {
          setAttempt(null);
          setResult(scored.result);
          onProgress(scored.progress);
          void load();
        }}
      />
    );
  }
  const mayTry = !summary.passed && summary.attempts_left !== 0 && !summary.next_attempt_at;
  return (
    <div className="space-y-4">
      {lesson.description && <p className="text-gray-700">{lesson.description}</p>}
      <p className="text-sm text-gray-700">{rulesLine(summary)}</p>
      {result && <AttemptResult result={result} passPercent={summary.pass_percent} />}
      {summary.passed && <p className="font-semibold text-green-800">You have passed this quiz (best score {summary.best_score}%).</p>}
      {!summary.passed && summary.attempts_left === 0 && (
        <p className="text-gray-700">You have used every try this quiz allows. Your coach can help you with what it covers.</p>
      )}
      {!summary.passed && summary.next_attempt_at && (
        <p className="text-gray-700">You can try again from {new Date(summary.next_attempt_at).toLocaleString()}.</p>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {mayTry && (
        <Button onClick={start} disabled={busy}>
          {summary.attempts_used > 0 ? 'Try again' : 'Start the quiz'}
        </Button>
      )}
    </div>
  );
}
