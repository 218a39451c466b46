// All configuration, read from the environment and validated once. A bad value
// stops start-up with a message naming the variable. Every variable here is
// documented in the README's configuration table.
import path from 'node:path';
import { z } from 'zod';

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0', ''], { error: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true' || value === '1');

const seconds = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((v) => /^\d+$/.test(v) && Number.isSafeInteger(Number(v)), 'must be a whole number of seconds')
    .transform(Number);

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform((value) => value.replace(/\/+$/, ''));

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z
    .string()
    .default('10')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 1000, 'must be a whole number from 1 to 1000')
    .transform(Number),
  DATA_DIR: z.string().min(1).default('.atrium'),
  PORT: z
    .string()
    .default('3000')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, 'must be a whole number from 1 to 65535')
    .transform(Number),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: url.optional(),
  DEV_AUTH: flag('false'),
  LOG_REQUESTS: flag('true'),
  TRUST_PROXY: flag('false'),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 33`)').optional(),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587' })
    .optional(),
  SMTP_FROM: z.string().min(3).optional(),
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  MAX_UPLOAD_BYTES: z
    .string()
    .default('104857600')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number.isSafeInteger(Number(v)), 'must be a whole number of bytes, at least 1')
    .transform(Number),
  CONTENT_BASE_URL: url.optional(),
  BLOB_READ_WRITE_TOKEN: z
    .string()
    .regex(/^vercel_blob_rw_[A-Za-z0-9]+_\w+$/, 'must be a Vercel Blob read-write token (vercel_blob_rw_<store>_<secret>)')
    .optional(),
  VERCEL_BLOB_API_URL: url.optional(),
  STORAGE_GRACE_SECONDS: seconds('3600'),
  STORAGE_SWEEP_SECONDS: seconds('900'),
  SPACEDB_TIMEOUT_SECONDS: seconds('30'),
  SPACEDB_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379' })
    .optional(),
});

type OAuthClient = { clientId: string; clientSecret: string };

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  databaseUrl: string | undefined;
  /** Connections this process opens to PostgreSQL at most. */
  databasePoolSize: number;
  dataDir: string;
  port: number;
  host: string;
  publicUrl: string;
  devAuth: boolean;
  logRequests: boolean;
  trustProxy: boolean;
  authSecret: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  github: OAuthClient | null;
  google: OAuthClient | null;
  maxUploadBytes: number;
  /** Where published spaces are served; PUBLIC_URL unless CONTENT_BASE_URL is set. */
  contentBaseUrl: string;
  /** True when published content has an origin of its own, apart from the app's. */
  separateContentOrigin: boolean;
  blobToken: string | undefined;
  /** How long an unreferenced blob or a temporary file is kept after its last use. */
  storageGraceMs: number;
  /** How often the storage sweeper runs; 0 turns it off. */
  storageSweepMs: number;
  /** Where rate-limit counters live when set (else in Postgres). */
  redisUrl: string | undefined;
  /** How long a space database query may run before its process is killed. */
  spacedbTimeoutMs: number;
  /** Child processes that run space database queries. */
  spacedbWorkers: number;
};

export class ConfigError extends Error {
  name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      // Secrets are not repeated into logs.
      const shown = /SECRET|SMTP_URL|REDIS_URL/.test(name) ? '(hidden)' : JSON.stringify(env[name] ?? '');
      return `  ${name}=${shown}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const issues: string[] = [];
  const oauth = (name: string, clientId: string | undefined, clientSecret: string | undefined): OAuthClient | null => {
    if (clientId && clientSecret) return { clientId, clientSecret };
    if (clientId || clientSecret) issues.push(`  ${name}_CLIENT_ID and ${name}_CLIENT_SECRET: set both or neither`);
    return null;
  };
  const github = oauth('GITHUB', e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET);
  const google = oauth('GOOGLE', e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET);
  if (issues.length) throw new ConfigError(`Invalid configuration:\n${issues.join('\n')}`);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const contentBaseUrl = e.CONTENT_BASE_URL ?? publicUrl;
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: path.resolve(e.DATA_DIR),
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    devAuth: e.DEV_AUTH,
    logRequests: e.LOG_REQUESTS,
    trustProxy: e.TRUST_PROXY,
    authSecret: e.AUTH_SECRET,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM ?? `Atrium <atrium@${new URL(publicUrl).hostname}>`,
    github,
    google,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    contentBaseUrl,
    separateContentOrigin: new URL(contentBaseUrl).origin !== new URL(publicUrl).origin,
    blobToken: e.BLOB_READ_WRITE_TOKEN,
    storageGraceMs: e.STORAGE_GRACE_SECONDS * 1000,
    storageSweepMs: e.STORAGE_SWEEP_SECONDS * 1000,
    redisUrl: e.REDIS_URL,
    spacedbTimeoutMs: e.SPACEDB_TIMEOUT_SECONDS * 1000,
    spacedbWorkers: e.SPACEDB_WORKERS,
  };
}

export const config: Config = loadConfig(process.env);
