// How a node process starts listening and how it is stopped, the same for
// scripts/start.ts, server/main.ts and server/realtime-main.ts.
//
// Supervisors stop a node in different ways: SIGTERM to the entry process
// only (a container's PID 1, systemd's KillMode=mixed), to the whole process
// group (systemd's default, Ctrl-C), or to one process. Whichever process
// hears it first starts one drain: a signal, or its parent going away (npm
// exits at once on SIGTERM and its shell dies with it, leaving the rest
// re-parented). A process started with an IPC channel (server/main.ts under
// scripts/start.ts) takes that channel's closing as its parent's request to
// drain, so a forwarded request is never counted as a second signal.
import type { Server } from 'node:http';
import { handleStopSignals } from '../lib/db/embedded-postgres.ts';
import { log } from '../lib/log.ts';

/** How often a process without an IPC channel checks that its parent is still there. */
const PARENT_CHECK_MS = 500;

/**
 * Calls `drain` once: on the first SIGTERM or SIGINT, or when the parent
 * process is gone. A second signal is only logged, so a group signal or an
 * impatient supervisor does not cut requests in flight; a third calls `force`.
 */
export function onStopRequest({ drain, force }: { drain: (reason: string) => void; force: () => void }): void {
  let signals = 0;
  let draining = false;
  const start = (reason: string) => {
    if (draining) return;
    draining = true;
    log.info('draining', { reason });
    drain(reason);
  };
  handleStopSignals((signal) => {
    signals++;
    if (signals === 1) return start(signal);
    if (signals === 2) return log.warn('already draining; a third signal stops at once, cutting requests in flight', { signal });
    log.warn('stopping at once without finishing the drain', { signal });
    force();
  });
  if (process.channel) {
    process.once('disconnect', () => start('parent closed the channel'));
    return;
  }
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) start('parent process exited');
  }, PARENT_CHECK_MS).unref();
}

/**
 * Listens on `port`, or exits with code 1 and one line saying why (a port in
 * use, an address this machine lacks): a node that cannot listen must not
 * stay up and look alive to its supervisor.
 */
export function listenOrExit(server: Server, port: number, host: string, listening: (port: number) => void): void {
  const failed = (error: NodeJS.ErrnoException) => {
    const reasons: Record<string, string> = { EADDRINUSE: 'the port is in use', EACCES: 'the port needs privileges', EADDRNOTAVAIL: 'the address is not on this machine' };
    log.error(`cannot listen on ${host}:${port}: ${reasons[error.code ?? ''] ?? error.message}`, { code: error.code });
    process.exit(1);
  };
  server.once('error', failed);
  server.listen(port, host, () => {
    server.off('error', failed);
    listening((server.address() as { port: number }).port);
  });
}
