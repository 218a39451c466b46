// Where the CLI keeps its sign-ins: a JSON file in the platform's config
// directory, readable only by its owner, with one entry per server (like gh's
// hosts file) and the server commands use by default. ATRIUM_URL and
// ATRIUM_TOKEN override it (CI), and --server overrides both.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_SERVER = 'http://localhost:3000';

export type Host = { token: string; handle?: string };
export type StoredConfig = {
  /** The server commands talk to when neither --server nor ATRIUM_URL says. */
  current?: string;
  hosts: Record<string, Host>;
};

/** The single-server file of earlier versions: { server, token, handle }. */
type LegacyConfig = { server?: string; token?: string; handle?: string };

export function configDir(env = process.env, platform = process.platform): string {
  if (env.ATRIUM_CONFIG_DIR) return env.ATRIUM_CONFIG_DIR;
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'atrium');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'atrium');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'atrium');
}

export const configFile = () => path.join(configDir(), 'config.json');

/** A server as the config keys it: no trailing slash, and a scheme (https unless given). */
export function normalizeServer(server: string): string {
  const trimmed = server.trim().replace(/\/+$/, '');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export async function readConfig(): Promise<StoredConfig> {
  let raw: StoredConfig & LegacyConfig;
  try {
    raw = JSON.parse(await readFile(configFile(), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { hosts: {} };
    throw new Error(`Cannot read ${configFile()}: ${(error as Error).message}`);
  }
  const hosts: Record<string, Host> = { ...(raw.hosts ?? {}) };
  let current = raw.current;
  // Carried over from the one-server file, so an upgrade keeps people signed in.
  if (raw.server) {
    const server = normalizeServer(raw.server);
    if (raw.token && !hosts[server]) hosts[server] = { token: raw.token, handle: raw.handle };
    current ??= server;
  }
  return { current, hosts };
}

export async function writeConfig(config: StoredConfig): Promise<void> {
  const file = configFile();
  if (!config.current && Object.keys(config.hosts).length === 0) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFile keeps the mode of an existing file: make sure it is private.
  await chmod(file, 0o600);
}

export async function saveSignIn(server: string, host: Host): Promise<void> {
  const config = await readConfig();
  config.hosts[server] = host;
  config.current = server;
  await writeConfig(config);
}

/** Forgets the token of `server`; the default moves to another signed-in server, if any. */
export async function forgetSignIn(server: string): Promise<void> {
  const config = await readConfig();
  delete config.hosts[server];
  if (config.current === server) config.current = Object.keys(config.hosts)[0];
  await writeConfig(config);
}

export type Session = { server: string; token?: string; source: 'flag' | 'env' | 'config' | 'default'; tokenSource?: 'env' | 'config' };

/** The server and token in force: --server, then ATRIUM_URL, then the config's current server. */
export async function resolveSession(serverFlag?: string): Promise<Session> {
  const stored = await readConfig();
  const given = serverFlag ?? process.env.ATRIUM_URL;
  const server = normalizeServer(given ?? stored.current ?? DEFAULT_SERVER);
  const source = serverFlag ? 'flag' : process.env.ATRIUM_URL ? 'env' : stored.current ? 'config' : 'default';
  if (process.env.ATRIUM_TOKEN) return { server, token: process.env.ATRIUM_TOKEN, source, tokenSource: 'env' };
  // A stored token belongs to its server; it is never sent elsewhere.
  const token = stored.hosts[server]?.token;
  return { server, token, source, tokenSource: token ? 'config' : undefined };
}
