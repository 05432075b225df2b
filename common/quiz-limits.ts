/** Quizzes (a lesson kind, common/quizzes.contract.ts): how big one may be, and what staff may set. */
export const QUIZ = {
  maxQuestions: 50,
  maxOptions: 8,
  /** A question, an answer and the explanation shown once it is answered, in characters. */
  promptMax: 1000,
  optionMax: 300,
  explanationMax: 2000,
  /** At most this many tries, when staff limit them (none: as many as the member likes). */
  maxAttempts: 20,
  /** The wait between two tries staff may ask for, at most a week. */
  maxWaitMinutes: 7 * 24 * 60,
  /** The time limit staff may set, at most four hours. */
  maxTimeLimitMinutes: 240,
  /** Answers sent this long after the time is up still count: the network may be slow. */
  lateGraceSeconds: 30,
} as const;
