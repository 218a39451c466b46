// All configuration, read from the environment and validated once. A bad value
// stops start-up with a message naming the variable. Every variable here is
// documented in the README's configuration table.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { registrableDomain } from './registrable-domain.ts';

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

/** An address as node:dns takes it: 1.1.1.1, 1.1.1.1:53, 2606:4700::1111 or [2606:4700::1111]:53. */
function isDnsServer(server: string): boolean {
  const [, address, port] = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(server)?.filter((part) => part !== undefined) ?? [null, server, null];
  return isIP(address ?? '') !== 0 && (port === null || (Number(port) >= 1 && Number(port) <= 65535));
}

const price = z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_…)');

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
  CONTENT_BASE_URL: url
    .refine((value) => new URL(value).pathname === '/', 'must be a bare origin, with no path: each site gets a host of its own under it')
    .refine((value) => !/^[\d.]+$|^\[/.test(new URL(value).hostname), 'must be a domain name, not an address: sites are served on its sub-domains')
    .optional(),
  CONTENT_DOMAIN_PUBLIC_SUFFIX: flag('false'),
  BLOB_READ_WRITE_TOKEN: z
    .string()
    .regex(/^vercel_blob_rw_[A-Za-z0-9]+_\w+$/, 'must be a Vercel Blob read-write token (vercel_blob_rw_<store>_<secret>)')
    .optional(),
  VERCEL_BLOB_API_URL: url.optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)')
    .optional(),
  S3_ENDPOINT: url.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag('false'),
  STORAGE_GRACE_SECONDS: seconds('3600'),
  STORAGE_SWEEP_SECONDS: seconds('900'),
  SPACEDB_TIMEOUT_SECONDS: seconds('30'),
  SPACEDB_WORKERS: z.coerce.number().int().min(1).max(64).default(3),
  // Custom domains' TXT records are looked up here (comma-separated addresses, with an optional port); unset: the system's resolvers.
  DNS_SERVERS: z
    .string()
    .transform((value) => value.split(',').map((server) => server.trim()))
    .refine((servers) => servers.every(isDnsServer), 'must be DNS server addresses separated by commas, e.g. 1.1.1.1,[2606:4700::1111]:53')
    .optional(),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379' })
    .optional(),
  BILLING_PROVIDER_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)')
    .optional(),
  BILLING_PROVIDER_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, "must be a Stripe webhook signing secret (whsec_…)").optional(),
  BILLING_PRICE_PRO: price.optional(),
  BILLING_PRICE_TEAM: price.optional(),
  BILLING_PRICE_ENTERPRISE: price.optional(),
  BILLING_PROVIDER_API_URL: url.optional(),
  BILLING_PLANS: z.string().min(1).optional(),
  // Rooms and live spaces (lib/rooms, realtime/).
  MAX_SOURCE_BYTES: z
    .string()
    .default('26214400')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number.isSafeInteger(Number(v)), 'must be a whole number of bytes, at least 1')
    .transform(Number),
  REALTIME_URL: z.url({ protocol: /^(wss?|https?)$/, error: 'must be a ws(s):// or http(s):// URL' }).transform((v) => v.replace(/\/+$/, '')).optional(),
  REALTIME_PORT: z
    .string()
    .default('3001')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535, 'must be a whole number from 1 to 65535')
    .transform(Number),
  ROOM_MAX_CONNECTIONS: z
    .string()
    .default('100')
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100000, 'must be a whole number from 1 to 100000')
    .transform(Number),
  AI_BASE_URL: url.optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  // Operating a cluster (lib/ops, docs/deploy.md).
  NODE_ID: z.string().regex(/^[\w.:-]{1,64}$/, 'must be 1–64 letters, digits, ".", ":", "-" or "_"').optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
  DRAIN_TIMEOUT_SECONDS: seconds('25'),
  DRAIN_NOTICE_SECONDS: seconds('0'),
  WEBHOOKS_ALLOW_PRIVATE: flag('false'),
});

const limit = z.number().int().min(0).nullable();
const planTable = z.partialRecord(
  z.enum(['free', 'pro', 'team', 'enterprise']),
  z.strictObject({ seats: limit, rooms: limit, liveSpaces: limit, liveApps: limit, storageBytes: limit, databaseBytes: limit }).partial(),
);

/** Per-plan limits an operator sets (BILLING_PLANS); keys left out keep the built-in value, null is unlimited. */
export type PlanTableOverrides = z.infer<typeof planTable>;

/** BILLING_PLANS: `default` (the built-in table), inline JSON, or the path of a JSON file. */
function parsePlanTable(value: string): PlanTableOverrides | string {
  if (value === 'default') return {};
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = readFileSync(value, 'utf8');
    } catch {
      return `must be "default", JSON, or the path of a readable JSON file (${value} cannot be read)`;
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  const parsed = planTable.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue.path.join('.') || 'the table'}: ${issue.message} (expected {"free": {"seats": 3, "storageBytes": 1073741824}, …})`;
  }
  return parsed.data;
}

/** Where blobs live in an S3-compatible store; without keys the SDK's own chain (environment, instance role) is used. */
export type S3Config = { bucket: string; endpoint: string | null; region: string; accessKeyId: string | null; secretAccessKey: string | null; forcePathStyle: boolean };

/** The scheme, domain and port of the content domain; `port` is "" for the scheme's default. */
export type ContentDomain = { protocol: 'http:' | 'https:'; hostname: string; port: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function contentDomainOf(contentBaseUrl: string | undefined, publicUrl: string): ContentDomain | null {
  const base = contentBaseUrl ? new URL(contentBaseUrl) : new URL(publicUrl);
  // Browsers resolve every *.localhost name to loopback themselves: a local install needs no setup.
  if (!contentBaseUrl && !LOOPBACK.has(base.hostname)) return null;
  const hostname = contentBaseUrl ? base.hostname : 'localhost';
  return { protocol: base.protocol as ContentDomain['protocol'], hostname, port: base.port };
}

/**
 * Why sites under CONTENT_BASE_URL would be on the app's registrable domain,
 * else null. There a site's page can set cookies the app reads (a Domain
 * cookie beside its session, the sign-in handshake's) and counts as the
 * app's own site for SameSite: one visit could sign a visitor in as the
 * site's author. Each site is its own registrable domain only when the
 * content domain is on the Public Suffix List, which the operator states.
 */
function contentDomainProblem(contentBaseUrl: string | undefined, publicUrl: string, onPublicSuffixList: boolean): string | null {
  if (!contentBaseUrl) return onPublicSuffixList ? 'CONTENT_DOMAIN_PUBLIC_SUFFIX: needs CONTENT_BASE_URL (the content domain it speaks of)' : null;
  if (onPublicSuffixList) return null;
  const appHost = new URL(publicUrl).hostname;
  const siteHost = `sp-id.${new URL(contentBaseUrl).hostname}`;
  const shared = registrableDomain(appHost);
  if (registrableDomain(siteHost) !== shared) return null;
  return (
    `CONTENT_BASE_URL and PUBLIC_URL: sites (${siteHost}) would share the app's registrable domain (${shared}), where a site's page can set cookies the app reads. ` +
    'Serve sites from a domain of their own (atrium-sites.example beside atrium.example), or set CONTENT_DOMAIN_PUBLIC_SUFFIX=true if the content domain is on the Public Suffix List'
  );
}

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
  /**
   * Where each published site and live app gets a host of its own
   * (`<label>.<hostname>`): CONTENT_BASE_URL, else `localhost` when the app
   * itself runs on a loopback address. Null: they are served sandboxed on the
   * app's own origin (lib/spaces/hosts.ts).
   */
  contentDomain: ContentDomain | null;
  blobToken: string | undefined;
  /** An S3-compatible bucket for blobs (S3_BUCKET set), else null. */
  s3: S3Config | null;
  /** How long an unreferenced blob or a temporary file is kept after its last use. */
  storageGraceMs: number;
  /** How often the storage sweeper runs; 0 turns it off. */
  storageSweepMs: number;
  /** The DNS servers custom domains' TXT records are looked up at; empty: the system's. */
  dnsServers: string[];
  /** Where rate-limit counters live when set (else in Postgres). */
  redisUrl: string | undefined;
  billing: BillingConfig;
  /**
   * The operator's plan limits (BILLING_PLANS). Null: none set, so limits
   * apply only with a billing provider (a self-hosted install is uncapped).
   */
  planTable: PlanTableOverrides | null;
  /** Largest source file a room accepts. */
  maxSourceBytes: number;
  /** Where clients open room sockets when the realtime server runs apart (npm run realtime); else PUBLIC_URL. */
  realtimeUrl: string | undefined;
  /** The port of the standalone realtime server. */
  realtimePort: number;
  /** Sockets one room's document takes on one realtime node. */
  roomMaxConnections: number;
  /** An OpenAI-compatible endpoint for AI suggestions in rooms; off when unset. */
  ai: { baseUrl: string; apiKey: string | undefined; model: string } | null;
  /** How long a space database query may run before its process is killed. */
  spacedbTimeoutMs: number;
  /** Child processes that run space database queries. */
  spacedbWorkers: number;
  /** This process's name in every log line and in /metrics (NODE_ID, else host name and pid). */
  nodeId: string;
  /** The bearer token /metrics asks for; null: /metrics is off. */
  metricsToken: string | null;
  /** How long a stopping node waits for requests in flight before it closes what is left. */
  drainTimeoutMs: number;
  /** How long a stopping node goes on taking requests while not ready, so that load balancers notice first. */
  drainNoticeMs: number;
  /** Webhooks may target loopback, private and link-local addresses, and plain HTTP (intranets, tests). */
  webhooksAllowPrivate: boolean;
};

export type BillingConfig = {
  /** Stripe's secret key; null: no billing provider (checkout, portal and keep answer 400). */
  secretKey: string | null;
  /** Signing secret of the webhook endpoint; null: the webhook answers 404. */
  webhookSecret: string | null;
  /** Stripe price ids of the plans sold; `enterprise` is optional (see docs/decisions.md). */
  prices: { pro: string | null; team: string | null; enterprise: string | null };
  /** Another address of Stripe's API (a stand-in in tests, stripe-mock); null: Stripe's own. */
  apiUrl: string | null;
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
      const shown = /SECRET|SMTP_URL|REDIS_URL|API_KEY|TOKEN/.test(name) ? '(hidden)' : JSON.stringify(env[name] ?? '');
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
  if (e.BILLING_PROVIDER_WEBHOOK_SECRET && !e.BILLING_PROVIDER_SECRET_KEY) {
    issues.push('  BILLING_PROVIDER_WEBHOOK_SECRET: needs BILLING_PROVIDER_SECRET_KEY too (events are checked against Stripe with it)');
  }
  if (e.BILLING_PROVIDER_SECRET_KEY) {
    for (const name of ['BILLING_PRICE_PRO', 'BILLING_PRICE_TEAM'] as const) {
      if (!e[name]) issues.push(`  ${name}: needed with BILLING_PROVIDER_SECRET_KEY (the Stripe price id of the plan, price_…)`);
    }
  }
  if (e.S3_BUCKET && e.BLOB_READ_WRITE_TOKEN) issues.push('  S3_BUCKET and BLOB_READ_WRITE_TOKEN: choose one blob store');
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) issues.push('  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both or neither');
  if (!e.S3_BUCKET && (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID)) issues.push('  S3_BUCKET: needed with the other S3_ settings (the bucket that holds the blobs)');
  const planTable = e.BILLING_PLANS === undefined ? null : parsePlanTable(e.BILLING_PLANS);
  if (typeof planTable === 'string') issues.push(`  BILLING_PLANS: ${planTable}`);
  const github = oauth('GITHUB', e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET);
  const google = oauth('GOOGLE', e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const contentProblem = contentDomainProblem(e.CONTENT_BASE_URL, publicUrl, e.CONTENT_DOMAIN_PUBLIC_SUFFIX);
  if (contentProblem) issues.push(`  ${contentProblem}`);
  if (issues.length) throw new ConfigError(`Invalid configuration:\n${issues.join('\n')}`);
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
    contentDomain: contentDomainOf(e.CONTENT_BASE_URL, publicUrl),
    blobToken: e.BLOB_READ_WRITE_TOKEN,
    s3: e.S3_BUCKET
      ? { bucket: e.S3_BUCKET, endpoint: e.S3_ENDPOINT ?? null, region: e.S3_REGION, accessKeyId: e.S3_ACCESS_KEY_ID ?? null, secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? null, forcePathStyle: e.S3_FORCE_PATH_STYLE }
      : null,
    storageGraceMs: e.STORAGE_GRACE_SECONDS * 1000,
    storageSweepMs: e.STORAGE_SWEEP_SECONDS * 1000,
    dnsServers: e.DNS_SERVERS ?? [],
    redisUrl: e.REDIS_URL,
    billing: {
      secretKey: e.BILLING_PROVIDER_SECRET_KEY ?? null,
      webhookSecret: e.BILLING_PROVIDER_WEBHOOK_SECRET ?? null,
      prices: { pro: e.BILLING_PRICE_PRO ?? null, team: e.BILLING_PRICE_TEAM ?? null, enterprise: e.BILLING_PRICE_ENTERPRISE ?? null },
      apiUrl: e.BILLING_PROVIDER_API_URL ?? null,
    },
    planTable: typeof planTable === 'string' ? null : planTable,
    maxSourceBytes: e.MAX_SOURCE_BYTES,
    realtimeUrl: e.REALTIME_URL,
    realtimePort: e.REALTIME_PORT,
    roomMaxConnections: e.ROOM_MAX_CONNECTIONS,
    ai: e.AI_BASE_URL ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL } : null,
    spacedbTimeoutMs: e.SPACEDB_TIMEOUT_SECONDS * 1000,
    spacedbWorkers: e.SPACEDB_WORKERS,
    nodeId: e.NODE_ID ?? `${hostname()}:${process.pid}`,
    metricsToken: e.METRICS_TOKEN ?? null,
    drainTimeoutMs: e.DRAIN_TIMEOUT_SECONDS * 1000,
    drainNoticeMs: e.DRAIN_NOTICE_SECONDS * 1000,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
  };
}

export const config: Config = loadConfig(process.env);
