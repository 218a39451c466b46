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
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587' })
    .optional(),
  SMTP_FROM: z.string().min(3).optional(),
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
  smtpUrl: string | undefined;
  smtpFrom: string;
};

export class ConfigError extends Error {}

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
  return {
    nodeEnv: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    devAuth: e.DEV_AUTH,
    logRequests: e.LOG_REQUESTS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM ?? `Atrium <atrium@${new URL(publicUrl).hostname}>`,
  };
}

export const config: Config = loadConfig(process.env);
