// Which failures mean "the database is away" (a restart, a failover, a frozen server, a full pool)
// rather than "this query is wrong". The first kind answers 503 and is retried; the second is a bug.

// SQLSTATE classes and codes: 08 connection exception; 53300 too many connections; 57P01-57P03 the
// server shutting down, crashed or starting; 57014 a statement cancelled by its timeout.
const UNAVAILABLE_CODES = new Set(['53300', '57P01', '57P02', '57P03', '57014', '25P03']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
// What the pg driver and its pool say when a connection is gone, cannot be made in time, or hangs.
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  'Connection terminated unexpectedly',
  'connect ECONNREFUSED',
  'the database system is',
];

/** True when `error` (or anything in its `cause` chain) says the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return true;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (DRIVER_MESSAGES.some((text) => message.includes(text))) return true;
    // Node's connection attempts to several addresses fail with an AggregateError of each one's error.
    if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * True when the connection itself broke while a query ran (as opposed to a timeout or a refusal): a
 * read may then be sent again on a fresh connection, since nothing of it can have been half done.
 */
export function isConnectionLost(error: unknown): boolean {
  const candidate = error as { code?: unknown; message?: unknown };
  const code = typeof candidate?.code === 'string' ? candidate.code : '';
  const message = typeof candidate?.message === 'string' ? candidate.message : '';
  return (
    code === '57P01' ||
    code === '57P02' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    message.includes('Connection terminated') ||
    message.includes('is not queryable')
  );
}

/**
 * True when PostgreSQL refused a value the request carried (SQLSTATE class 22: a date out of range,
 * text where a number goes): the request is wrong, not the server, so it answers 400.
 */
export function isRefusedValue(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^22[0-9A-Z]{3}$/.test(candidate.code)) return true;
    current = candidate.cause;
  }
  return false;
}

const UNIQUE_VIOLATION = '23505';

/** The database refused a second row with the same unique value (an address taken meanwhile). */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } };
  return candidate?.code === UNIQUE_VIOLATION || candidate?.cause?.code === UNIQUE_VIOLATION;
}

/**
 * The constraint the database refused a change for (SQLSTATE class 23: a unique index, an exclusion
 * constraint), through any wrapping of the driver's error; undefined for any other failure.
 */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && candidate.code.startsWith('23') && typeof candidate.constraint === 'string') {
      return candidate.constraint;
    }
    current = candidate.cause;
  }
  return undefined;
}

// 40P01 deadlock detected; 40001 serialization failure: the database rolled the transaction back, and
// the same transaction run again will most likely go through.
const CONFLICT_CODES = new Set(['40P01', '40001']);

/** True when the database rolled back a transaction (or a statement) that met another one, and it may simply be run again. */
export function isTransientConflict(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && CONFLICT_CODES.has(candidate.code)) return true;
    current = candidate.cause;
  }
  return false;
}
