// Kept apart from the HTTP layer: requests, the minute jobs and the process itself log failures alike.

/**
 * What may be logged of an unexpected error. A failed database query's message holds the query's
 * parameters (a password hash, an email), so only its driver-level cause is kept.
 */
export function loggableError(error: unknown): { type: string; message: string; code?: string; stack?: string } {
  const candidate = error as { name?: string; message?: string; code?: string; stack?: string; cause?: unknown };
  const isQueryError = candidate?.name === 'DrizzleQueryError' || candidate?.message?.startsWith('Failed query');
  if (isQueryError) {
    const cause = candidate.cause as { message?: string; code?: string } | undefined;
    return { type: 'DatabaseError', message: cause?.message ?? 'database query failed', code: cause?.code };
  }
  return { type: candidate?.name ?? 'Error', message: candidate?.message ?? String(error), code: candidate?.code, stack: candidate?.stack };
}
