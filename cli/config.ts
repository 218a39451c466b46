// Where the CLI keeps its server and token: a JSON file in the platform's
// config directory, readable only by its owner. ATRIUM_URL and ATRIUM_TOKEN
// override it, and --server overrides both.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const DEFAULT_SERVER = 'http://localhost:3000';

export type StoredConfig = { server?: string; token?: string; handle?: string };

export function configDir(env = process.env, platform = process.platform): string {
  if (env.ATRIUM_CONFIG_DIR) return env.ATRIUM_CONFIG_DIR;
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'atrium');
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'atrium');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'atrium');
}

export const configFile = () => path.join(configDir(), 'config.json');

export async function readConfig(): Promise<StoredConfig> {
  try {
    return JSON.parse(await readFile(configFile(), 'utf8')) as StoredConfig;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`Cannot read ${configFile()}: ${(error as Error).message}`);
  }
}

export async function writeConfig(config: StoredConfig): Promise<void> {
  const file = configFile();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFile keeps the mode of an existing file: make sure it is private.
  await chmod(file, 0o600);
}

export async function clearToken(): Promise<void> {
  const { token: _dropped, handle: _handle, ...rest } = await readConfig();
  if (Object.keys(rest).length === 0) await rm(configFile(), { force: true });
  else await writeConfig(rest);
}

/** The server and token in force, with the flag, environment and file in that order. */
export async function resolveSession(serverFlag?: string): Promise<{ server: string; token?: string }> {
  const stored = await readConfig();
  const server = (serverFlag ?? process.env.ATRIUM_URL ?? stored.server ?? DEFAULT_SERVER).replace(/\/+$/, '');
  // A stored token belongs to the stored server; never send it elsewhere.
  const storedToken = stored.server && stored.server.replace(/\/+$/, '') === server ? stored.token : undefined;
  return { server, token: process.env.ATRIUM_TOKEN ?? storedToken };
}
