// The front server (server/) on a free port of this machine, for tests that
// speak HTTP to it as clients do: raw paths, odd headers, real sockets.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createFrontServer } from '@/server/index.ts';

export function useFrontServer() {
  const server = createFrontServer();
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    get origin() {
      return origin;
    },
  };
}
