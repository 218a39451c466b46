// A LISTEN session of its own on PostgreSQL: NOTIFY reaches only sessions that
// listen, and a pooled connection is not one. The session is reconnected a
// second after it drops; notices sent meanwhile are lost, so a user is told
// when it is listening again (onListening) and when it stops hearing (onLost).
import pg from 'pg';
import { config } from '../config.ts';
import { log } from '../log.ts';

const RETRY_MS = 1000;

export type ListenOptions = {
  /** Names the listener in the log. */
  name: string;
  onNotice: (payload: string) => void;
  /** After every LISTEN that succeeds, the first and each after a reconnect. */
  onListening?: () => void;
  /** When a listening session drops. */
  onLost?: () => void;
  /** Shown in pg_stat_activity, so an operator (or a test) can tell the session. */
  applicationName?: string;
  databaseUrl?: string;
};

/** Listens on `channel` until stopped; `ready` resolves when first listening. */
export function listen(channel: string, options: ListenOptions): { ready: Promise<void>; stop: () => Promise<void> } {
  const { name, onNotice, onListening, onLost, applicationName, databaseUrl = config.databaseUrl } = options;
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const later = () => {
    if (!stopped) retry ??= setTimeout(() => void connect(), RETRY_MS);
  };

  async function connect(): Promise<void> {
    retry = null;
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) onNotice(message.payload);
    });
    next.on('error', () => undefined);
    next.on('end', () => {
      if (client === next) {
        client = null;
        onLost?.();
      }
      later();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      // Stopped while connecting: nobody is left to hear.
      if (stopped) return void (await next.end());
      client = next;
      resolveReady();
      onListening?.();
    } catch (error) {
      log.warn(`${name}: cannot listen, retrying`, { error: error instanceof Error ? error.message : String(error) });
      await next.end().catch(() => undefined);
      later();
    }
  }

  void connect();
  return {
    ready,
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
      await client?.end().catch(() => undefined);
    },
  };
}
