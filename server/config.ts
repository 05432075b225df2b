import path from 'node:path';
import { z } from 'zod';

// Every setting the server reads, parsed once at start; the rest of the code receives typed values.
const booleanFlag = (fallback: boolean) =>
  z
    .enum(['0', '1', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((value) => (value === undefined || value === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(value)));

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const wholeNumber = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash
    );
  } catch {
    return false;
  }
}

/** The push services of current browsers: Chrome and Android, Firefox, Safari and iOS, Edge. */
const DEFAULT_PUSH_SERVICE_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://android.googleapis.com',
  'https://*.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
].join(',');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An https:// origin, with `*.` for a whole domain; http:// only on this machine (a push service of the tests'). */
function isPushServiceOrigin(value: string): boolean {
  if (!isHttpOrigin(value.replace('//*.', '//'))) return false;
  const url = new URL(value.replace('//*.', '//'));
  return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
}

const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce
      .number({ error: 'PORT must be a whole number between 0 and 65535 (0 takes any free port)' })
      .int('PORT must be a whole number between 0 and 65535 (0 takes any free port)')
      .min(0, 'PORT must be a whole number between 0 and 65535 (0 takes any free port)')
      .max(65535, 'PORT must be a whole number between 0 and 65535 (0 takes any free port)')
      .default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: optionalText.refine((value) => value === undefined || isHttpOrigin(value), {
      message: 'PUBLIC_URL must be the site origin, such as https://www.example.com (no path)',
    }),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
      message: 'DATABASE_URL must start with postgres:// or postgresql://',
    }),
    ADMIN_EMAIL: optionalText.pipe(z.email('ADMIN_EMAIL must be an email address').optional()),
    ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional()),
    SEED_DEMO: booleanFlag(true),
    TRUST_PROXY: optionalText,
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,40}$/, 'REDIS_KEY_PREFIX may hold letters, digits, colons, dashes and underscores')
      .default('realtypocket'),
    REDIS_URL: optionalText.refine((value) => value === undefined || /^rediss?:\/\//.test(value), {
      message: 'REDIS_URL must start with redis:// or rediss://',
    }),
    UPLOAD_MAX_MB: z.coerce
      .number({ error: 'UPLOAD_MAX_MB must be a number' })
      .positive('UPLOAD_MAX_MB must be above 0')
      .max(5120)
      .default(100),
    S3_BUCKET: optionalText,
    S3_REGION: z.string().default('us-east-1'),
    S3_ENDPOINT: optionalText.pipe(z.url('S3_ENDPOINT must be a URL').optional()),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: booleanFlag(false),
    REQUEST_TIMEOUT_SECONDS: z.coerce
      .number({ error: 'REQUEST_TIMEOUT_SECONDS must be a number of seconds' })
      .min(1, 'REQUEST_TIMEOUT_SECONDS must be at least 1')
      .max(3600)
      .default(120),
    MAX_CONNECTIONS: z.coerce
      .number({ error: 'MAX_CONNECTIONS must be a whole number' })
      .int('MAX_CONNECTIONS must be a whole number')
      .min(1, 'MAX_CONNECTIONS must be at least 1')
      .default(1024),
    DATABASE_POOL_SIZE: wholeNumber('DATABASE_POOL_SIZE', 1, 200).default(10),
    DATABASE_CONNECT_TIMEOUT_MS: wholeNumber('DATABASE_CONNECT_TIMEOUT_MS', 100, 60_000).default(2_000),
    DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber('DATABASE_STATEMENT_TIMEOUT_MS', 100, 600_000).default(4_000),
    REDIS_COMMAND_TIMEOUT_MS: wholeNumber('REDIS_COMMAND_TIMEOUT_MS', 50, 10_000).default(500),
    OUTBOUND_TIMEOUT_SECONDS: wholeNumber('OUTBOUND_TIMEOUT_SECONDS', 1, 120).default(10),
    SHUTDOWN_GRACE_SECONDS: wholeNumber('SHUTDOWN_GRACE_SECONDS', 1, 600).default(25),
    METRICS_TOKEN: optionalText.refine((value) => value === undefined || value.length >= 16, {
      message: 'METRICS_TOKEN must be at least 16 characters',
    }),
    SESSION_IDLE_DAYS: z.coerce.number().positive().default(14),
    SESSION_MAX_DAYS: z.coerce.number().positive().default(60),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SMTP_URL: optionalText.refine((value) => value === undefined || /^smtps?:\/\/[^/]+/.test(value), {
      message: 'SMTP_URL must look like smtp://user:pass@host:port or smtps://user:pass@host:port',
    }),
    MAIL_FROM: z
      .string()
      .trim()
      .regex(
        /^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
        'MAIL_FROM must be an address, such as RealtyPocket <no-reply@example.com>',
      )
      .default('RealtyPocket <no-reply@localhost>'),
    STAFF_NOTIFY_EMAIL: optionalText.pipe(z.email('STAFF_NOTIFY_EMAIL must be an email address').optional()),
    STRIPE_SECRET_KEY: optionalText.refine((value) => value === undefined || /^(sk|rk)_(test|live)_\S+$/.test(value), {
      message: 'STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_... or sk_live_...)',
    }),
    STRIPE_WEBHOOK_SECRET: optionalText.refine((value) => value === undefined || value.startsWith('whsec_'), {
      message: 'STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_...)',
    }),
    STRIPE_API_BASE: optionalText.refine((value) => value === undefined || isHttpOrigin(value), {
      message: 'STRIPE_API_BASE must be an http(s)://host:port origin, such as http://localhost:12111 for stripe-mock',
    }),
    // Web push: the site's VAPID key pair (`npx web-push generate-vapid-keys`) and a contact for the
    // push services; without keys on PostgreSQL, push is off (the embedded database keeps a pair of its own).
    VAPID_PUBLIC_KEY: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{80,90}$/.test(value), {
      message: 'VAPID_PUBLIC_KEY must be a base64url P-256 public key, as `npx web-push generate-vapid-keys` prints',
    }),
    VAPID_PRIVATE_KEY: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{40,45}$/.test(value), {
      message: 'VAPID_PRIVATE_KEY must be a base64url P-256 private key, as `npx web-push generate-vapid-keys` prints',
    }),
    VAPID_SUBJECT: optionalText.refine((value) => value === undefined || /^(mailto:|https:\/\/)/.test(value), {
      message: 'VAPID_SUBJECT must be a mailto: address or an https:// address where the push services can reach you',
    }),
    /** The push services browsers subscribe with; pushes go to these origins only (no request to any other address). */
    PUSH_SERVICE_ORIGINS: z
      .string()
      .default(DEFAULT_PUSH_SERVICE_ORIGINS)
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((origins) => origins.every(isPushServiceOrigin), {
        message: 'PUSH_SERVICE_ORIGINS must be https:// origins (or *.host for a whole domain), separated by commas',
      }),
  })
  .refine((c) => (c.VAPID_PUBLIC_KEY === undefined) === (c.VAPID_PRIVATE_KEY === undefined), {
    message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
    path: ['VAPID_PRIVATE_KEY'],
  })
  .refine((c) => c.STRIPE_SECRET_KEY === undefined || c.STRIPE_WEBHOOK_SECRET !== undefined, {
    message: 'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY, so payment events can be verified',
    path: ['STRIPE_WEBHOOK_SECRET'],
  })
  .refine((c) => (c.ADMIN_EMAIL === undefined) === (c.ADMIN_PASSWORD === undefined), {
    message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    path: ['ADMIN_PASSWORD'],
  });

type RawConfig = z.output<typeof ConfigSchema>;

export interface Config {
  env: RawConfig['NODE_ENV'];
  isProduction: boolean;
  port: number;
  host: string;
  /**
   * The site's origin, for every absolute link the site makes (certificates, emails). With PORT=0 and
   * no PUBLIC_URL it is known once the server listens, and set then (server/serve.ts): read it when
   * a link is made, never keep a copy.
   */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  trustProxy: string | undefined;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  uploadMaxBytes: number;
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      }
    | undefined;
  /** A request (headers and body) must arrive within this; a slow or stalled client is cut off. */
  requestTimeoutMs: number;
  maxConnections: number;
  /** PostgreSQL: connections per process, and how long a connection and a statement may take. */
  database: { poolSize: number; connectMs: number; statementMs: number };
  /** A Redis command not answered within this counts as Redis being away (limits then count in process). */
  redisCommandTimeoutMs: number;
  /** Stripe, SMTP and S3: the longest wait for one call (connect and answer). */
  outboundTimeoutMs: number;
  /** On SIGTERM, requests under way get this long to finish. */
  shutdownGraceMs: number;
  /** Bearer token that opens /metrics; without it /metrics answers only the machine itself. */
  metricsToken: string | undefined;
  sessionIdleMs: number;
  sessionMaxMs: number;
  logLevel: RawConfig['LOG_LEVEL'];
  /** Web push: the VAPID keys when set (else the embedded database's own, or none), a contact, and the push services allowed. */
  push: { keys: { publicKey: string; privateKey: string } | undefined; subject: string; serviceOrigins: string[] };
  /** Payments with Stripe; undefined: billing is off, and the site says so. */
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | undefined } | undefined;
  mail: {
    /** SMTP server; without it every message is written as an .eml file under DATA_DIR/outbox. */
    smtpUrl: string | undefined;
    from: string;
    /** Who hears about contact messages; without it, every staff account. */
    staffNotify: string | undefined;
  };
}

export class ConfigError extends Error {}

const DAY_MS = 24 * 60 * 60 * 1000;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || 'config'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    env: c.NODE_ENV,
    isProduction: c.NODE_ENV === 'production',
    port: c.PORT,
    host: c.HOST,
    publicUrl: new URL(c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).origin,
    dataDir: path.resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    admin: c.ADMIN_EMAIL && c.ADMIN_PASSWORD ? { email: c.ADMIN_EMAIL, password: c.ADMIN_PASSWORD } : undefined,
    seedDemo: c.SEED_DEMO,
    trustProxy: c.TRUST_PROXY,
    redisUrl: c.REDIS_URL,
    redisKeyPrefix: c.REDIS_KEY_PREFIX,
    uploadMaxBytes: Math.round(c.UPLOAD_MAX_MB * 1024 * 1024),
    s3: c.S3_BUCKET
      ? {
          bucket: c.S3_BUCKET,
          region: c.S3_REGION,
          endpoint: c.S3_ENDPOINT,
          accessKeyId: c.S3_ACCESS_KEY_ID,
          secretAccessKey: c.S3_SECRET_ACCESS_KEY,
          forcePathStyle: c.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    requestTimeoutMs: c.REQUEST_TIMEOUT_SECONDS * 1000,
    maxConnections: c.MAX_CONNECTIONS,
    database: { poolSize: c.DATABASE_POOL_SIZE, connectMs: c.DATABASE_CONNECT_TIMEOUT_MS, statementMs: c.DATABASE_STATEMENT_TIMEOUT_MS },
    redisCommandTimeoutMs: c.REDIS_COMMAND_TIMEOUT_MS,
    outboundTimeoutMs: c.OUTBOUND_TIMEOUT_SECONDS * 1000,
    shutdownGraceMs: c.SHUTDOWN_GRACE_SECONDS * 1000,
    metricsToken: c.METRICS_TOKEN,
    sessionIdleMs: c.SESSION_IDLE_DAYS * DAY_MS,
    sessionMaxMs: c.SESSION_MAX_DAYS * DAY_MS,
    logLevel: c.LOG_LEVEL,
    mail: { smtpUrl: c.SMTP_URL, from: c.MAIL_FROM, staffNotify: c.STAFF_NOTIFY_EMAIL },
    push: {
      keys: c.VAPID_PUBLIC_KEY && c.VAPID_PRIVATE_KEY ? { publicKey: c.VAPID_PUBLIC_KEY, privateKey: c.VAPID_PRIVATE_KEY } : undefined,
      subject: c.VAPID_SUBJECT ?? `mailto:${c.ADMIN_EMAIL ?? 'admin@realtypocket.local'}`,
      serviceOrigins: c.PUSH_SERVICE_ORIGINS,
    },
    stripe:
      c.STRIPE_SECRET_KEY && c.STRIPE_WEBHOOK_SECRET
        ? { secretKey: c.STRIPE_SECRET_KEY, webhookSecret: c.STRIPE_WEBHOOK_SECRET, apiBase: c.STRIPE_API_BASE }
        : undefined,
  };
}
