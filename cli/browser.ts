import { spawn } from 'node:child_process';

/** Opens `url` in the default browser when there is a desktop to show it; never fails. */
export function openInBrowser(url: string): boolean {
  if (!process.stdout.isTTY || process.env.BROWSER === 'none') return false;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return false;
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    spawn(command, [url], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
    return true;
  } catch {
    return false;
  }
}
