import { z } from 'zod';

const booleanString = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** A whole number from `min` (to `max`), said in plain words when it is not one. */
function wholeNumber(min: number, max?: number) {
  const expected =
    max === undefined ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`;
  const atLeast = z.coerce.number({ error: expected }).int(expected).min(min, `must be at least ${min}`);
  return max === undefined ? atLeast : atLeast.max(max, `must be at most ${max}`);
}

/** Bits a secret holds at most, judged by how often each of its characters occurs (Shannon, times its length). */
function estimatedBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...value].length;
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / length) * Math.log2(count / length);
  return perChar * length;
}

/** Whether most characters repeat the one `period` places before (`abcabc…`, `admin-admin-…`). */
function isRepetitive(value: string): boolean {
  for (let period = 1; period <= value.length / 2; period += 1) {
    let same = 0;
    for (let index = period; index < value.length; index += 1) if (value[index] === value[index - period]) same += 1;
    if (same >= 0.75 * (value.length - period)) return true;
  }
  return false;
}

/** 32 random hex characters hold 128 bits and measure 89 or more here; `aaaa…` or `abab…` measure little. */
const isRandomEnough = (value: string) => estimatedBits(value) >= 80 && !isRepetitive(value);

const envSchema = z.object({
  PORT: wholeNumber(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  // Sent as `Authorization: Bearer <token>`, which cannot carry a space: one in the variable would lock the admin API out.
  ADMIN_TOKEN: z
    .string()
    .regex(/^\S+$/, 'must not contain spaces')
    .min(32, 'must be at least 32 characters (e.g. the output of `openssl rand -hex 32`)')
    .refine(
      isRandomEnough,
      'is too predictable (few distinct or repeated characters): use a random value, e.g. `openssl rand -hex 32`',
    )
    .optional(),
  // Behind a reverse proxy that appends X-Forwarded-For: the client address (for rate limits) is its last entry.
  TRUST_PROXY: booleanString.default(false),
  // Sign-in failures one client address may have in 15 minutes before its sign-ins are refused (429).
  SIGNIN_FAILURES_PER_ADDRESS: wholeNumber(1).default(20),
  // Where people reach this server (links in invitations and the setup banner); else the request's own origin.
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.default(false),
  // How often an idle webhook dispatcher looks for work; WEBHOOK_DISPATCHER=false: this process only serves HTTP.
  WEBHOOK_POLL_MS: wholeNumber(10, 60_000).default(250),
  WEBHOOK_DISPATCHER: booleanString.default(true),
  // How long new webhook work may wait while requests keep this process busy (0: never waits).
  WEBHOOK_YIELD_MS: wholeNumber(0, 60_000).default(5_000),
  RATE_LIMIT_PER_MINUTE: wholeNumber(1).default(600),
  // Check-ins one client address may make at one site by phone in an hour (docs/api.md, The visitor's phone).
  VISIT_CHECKINS_PER_HOUR: wholeNumber(1).default(10),
  IDEMPOTENCY_TTL_HOURS: wholeNumber(1, 24 * 365).default(168),
  WEBHOOK_LOG_RETENTION_DAYS: wholeNumber(1, 3650).default(30),
  // How long hosts' and visitors' sent or failed notifications are kept (docs/privacy.md).
  NOTIFICATION_LOG_RETENTION_DAYS: wholeNumber(1, 3650).default(30),
  // How often visits past their account's retention are anonymized (also once at start; docs/privacy.md).
  RETENTION_INTERVAL_MINUTES: wholeNumber(1, 24 * 60).default(60),
  NODE_ENV: z.string().default('development'),
  SEED_DEMO: booleanString.optional(),
  DB_POOL_MAX: wholeNumber(1, 500).default(20),
  // The event stream (docs/api.md, Event stream): its comment line, how long a client may resume, how often
  // an open stream's access is checked again, how often a kiosk with an open stream is marked seen.
  EVENTS_KEEPALIVE_SECONDS: wholeNumber(1, 300).default(25),
  EVENTS_POLL_MS: wholeNumber(10, 5_000).default(100),
  EVENTS_RETENTION_MINUTES: wholeNumber(60, 7 * 24 * 60).default(120),
  EVENTS_RECHECK_SECONDS: wholeNumber(1, 3600).default(300),
  EVENTS_KIOSK_SEEN_SECONDS: wholeNumber(1, 600).default(60),
  // Hosts' email (docs/notifications.md): off without SMTP_URL. The URL holds the SMTP password: never logged.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s/]+/, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587')
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/@/, 'must be an email address, e.g. "Gatehouse <gatehouse@example.com>"')
    .optional(),
  // How often an idle notification sender looks for messages to send; NOTIFICATION_SENDER=false: none in this process.
  NOTIFICATIONS_POLL_MS: wholeNumber(10, 60_000).default(500),
  NOTIFICATION_SENDER: booleanString.default(true),
  // Seals the private keys that sign visitors' passes in the database (docs/invitations.md, Signing keys).
  PASS_KEY_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (e.g. the output of `openssl rand -hex 32`)')
    .refine(isRandomEnough, 'is too predictable: use a random value, e.g. `openssl rand -hex 32`')
    .optional(),
});

/** Settings that only make sense together: an SMTP server needs a sender address. */
const checkedEnvSchema = envSchema.superRefine((env, ctx) => {
  if (env.SMTP_URL !== undefined && env.MAIL_FROM === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['MAIL_FROM'],
      message: 'is required with SMTP_URL: the sender address, e.g. "Gatehouse <gatehouse@example.com>"',
    });
  }
});

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Reads the process environment once at start; an empty (or blank) value counts as unset. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = checkedEnvSchema.safeParse(present);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? 'environment');
  throw new EnvError(`Invalid environment variable ${name}: ${issue?.message ?? 'invalid value'}`);
}

/** Demo data is seeded unless production or SEED_DEMO=false. */
export function shouldSeedDemo(env: Env): boolean {
  if (env.SEED_DEMO !== undefined) return env.SEED_DEMO;
  return env.NODE_ENV !== 'production';
}
