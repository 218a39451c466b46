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

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).transform((value) => value.replace(/\/+$/, ''));

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
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
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  host: string;
  publicUrl: string;
  devAuth: boolean;
  logRequests: boolean;
  trustProxy: boolean;
  maxUploadBytes: number;
  /** Where published spaces are served; PUBLIC_URL unless CONTENT_BASE_URL is set. */
  contentBaseUrl: string;
  /** True when published content has an origin of its own, apart from the app's. */
  separateContentOrigin: boolean;
  blobToken: string | undefined;
};

export class ConfigError extends Error {
  name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const contentBaseUrl = e.CONTENT_BASE_URL ?? publicUrl;
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    devAuth: e.DEV_AUTH,
    logRequests: e.LOG_REQUESTS,
    trustProxy: e.TRUST_PROXY,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    contentBaseUrl,
    separateContentOrigin: new URL(contentBaseUrl).origin !== new URL(publicUrl).origin,
    blobToken: e.BLOB_READ_WRITE_TOKEN,
  };
}

export const config: Config = loadConfig(process.env);
