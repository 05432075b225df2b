import type http from 'node:http';

/** Answers a request before the framework sees it, or says it did not (and the framework does). */
export type DoorAnswer = (request: http.IncomingMessage, response: http.ServerResponse) => boolean;

/**
 * The first thing a request meets in the HTTP server (http-server.ts). Shut until the app is built
 * and again once it closes, so that until then, and after, every request goes through the whole app.
 * Only answers that need nothing of the framework are given here: a visitor's read of an answer
 * already kept (server/cache/shared-api-answers.ts).
 */
export class FrontDoor {
  private answer: DoorAnswer | undefined;

  open(answer: DoorAnswer): void {
    this.answer = answer;
  }

  shut(): void {
    this.answer = undefined;
  }

  /** True when the request was answered here. */
  tryAnswer(request: http.IncomingMessage, response: http.ServerResponse): boolean {
    return this.answer !== undefined && this.answer(request, response);
  }
}
