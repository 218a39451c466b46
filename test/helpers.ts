// Calls route handlers the way Next does: a real Request and a params promise.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { POST as devLoginRoute } from '@/app/v1/auth/dev-login/route.ts';
import { config } from '@/lib/config.ts';
import { notificationMails } from '@/lib/notifications/notifications.ts';
import { createFrontServer } from '@/server/index.ts';
import { workDue } from './jobs.ts';
import { overSocket } from './server.ts';
import { startSmtpServer } from './smtp-server.ts';

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export const BASE = 'http://localhost:3000';

export type CallOptions = {
  body?: unknown;
  rawBody?: string | Uint8Array<ArrayBuffer>;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  params?: Record<string, string | string[]>;
};

export async function call(handler: Handler, method: string, path: string, options: CallOptions = {}) {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  if (options.cookie) headers.set('cookie', options.cookie);
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('content-type', 'application/json');
  }
  const response = await handler(new Request(BASE + path, { method, headers, body }), {
    params: Promise.resolve(options.params ?? {}),
  });
  const text = await response.text();
  const json = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, json, text };
}

let frontServer: { server: Server; origin: string } | undefined;
afterAll(async () => {
  if (!frontServer) return;
  frontServer.server.closeAllConnections();
  await new Promise((resolve) => frontServer!.server.close(resolve));
});

/** Opens a /dl/<ticket> link over a socket, from the front server (one per test file, started on first use). */
export async function download(ticket: string) {
  if (!frontServer) {
    const server = createFrontServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    frontServer = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }
  const response = await overSocket(frontServer.origin, new Request(`${BASE}/dl/${ticket}`));
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function signIn(handle: string, label: 'cli' | 'web' = 'cli', name?: string) {
  const { status, json, headers } = await call(devLoginRoute, 'POST', '/v1/auth/dev-login', { body: { handle, label, name } });
  if (status !== 200) throw new Error(`dev-login failed: ${status} ${JSON.stringify(json)}`);
  return { token: json.token as string, user: json.user as { id: string; handle: string; name: string | null }, headers };
}

/**
 * A local SMTP server for the calling file's tests, set as SMTP_URL while they
 * run; `url`, `mails` and `sent()` are read once it has started.
 */
export function useSmtpServer() {
  let server: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
  beforeAll(async () => {
    server = await startSmtpServer();
    config.smtpUrl = server.url;
  });
  afterAll(async () => {
    config.smtpUrl = undefined;
    await server?.close();
  });
  return {
    get url() {
      return server!.url;
    },
    /** The messages received so far (mail sent in the request: sign-in and invitation links). */
    get mails() {
      return server!.mails;
    },
    /** The messages received, once the queued mails have been sent (the queue worked from this process, until empty). */
    async sent() {
      while ((await workDue(notificationMails)) > 0);
      return server!.mails;
    },
  };
}
