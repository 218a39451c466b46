// The realtime companion server: Hocuspocus (Yjs sync, awareness, stateless
// messages) behind the sockets of GET /v1/rooms/{id}/ws and
// /v1/live-spaces/{id}/ws. It runs inside the front server (`npm start`,
// which hands it those upgrades) or alone (`npm run realtime`), so sockets can
// scale apart from HTTP. With REDIS_URL, nodes share documents and presence
// through @hocuspocus/extension-redis; chat and access changes travel over
// PostgreSQL LISTEN/NOTIFY (lib/db/bus.ts) with or without Redis.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import type { Peer } from 'crossws';
import crossws from 'crossws/adapters/node';
import { config } from '../lib/config.ts';
import type { RoomKind } from '../lib/db/generated/client.ts';
import { errorResponse, type ErrorCode } from '../lib/core/errors.ts';
import { failureResponse } from '../lib/ops/failures.ts';
import { log } from '../lib/log.ts';
import { realtimeDocuments, realtimeSocketRefusals, realtimeSockets, realtimeSocketsDrained, realtimeSocketsOpened } from '../lib/core/metrics.ts';
import { subscribeRoomEvents, type RoomEvent } from '../lib/db/bus.ts';
import { loadMessage } from '../lib/rooms/messages.ts';
import { admitSocket } from '../lib/rooms/sockets.ts';
import { roomAdmission } from './admission.ts';
import { deliverChat, messages, presence, recheckSockets, ticketAuth } from './extensions.ts';
import { applyLog, pageHistory } from './history.ts';
import { createPersistence, durableTransport } from './persistence.ts';
import { RECONNECT_CLOSE_CODE, send, type SocketContext, type SocketState } from './socket.ts';

const SOCKET_PATH = /^\/v1\/(rooms|live-spaces)\/([A-Za-z0-9_-]{1,100})\/ws$/;

/** How often every socket's access is re-checked, besides the immediate re-check an API change asks for. */
export const ACCESS_RECHECK_MS = 2000;
/** The largest WebSocket message accepted (a big paste is one update). */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

export type RealtimeOptions = {
  redisUrl?: string;
  /** Hocuspocus's store debounce; tests shorten it. */
  debounceMs?: number;
  maxDebounceMs?: number;
  recheckMs?: number;
  /** Sockets one room takes on this node (ROOM_MAX_CONNECTIONS). */
  maxRoomConnections?: number;
  name?: string;
  /** How long a stopping node keeps its sockets (DRAIN_NOTICE_SECONDS). */
  noticeMs?: number;
};

export type Realtime = {
  hocuspocus: Hocuspocus;
  /** Takes the upgrade when its path is a room socket; false leaves it to the caller. */
  handleUpgrade: (request: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
  /** Resolves once the node hears room events. */
  ready: Promise<void>;
  /** Refuses new sockets, keeps the open ones for the notice, then closes them with 4205 and stores every document. */
  stop: () => Promise<void>;
};

/** The HTTP answer refusing an upgrade, counted in /metrics by its code. */
function refuse(code: Exclude<ErrorCode, 'rate_limited'>, message: string, headers?: Record<string, string>) {
  realtimeSocketRefusals.inc({ code });
  return errorResponse(code, message, headers);
}
/** A full room is a 429 like any other: it says when a place may have come free. */
export const ROOM_FULL_RETRY_SECONDS = 30;
/** A stopping node closes its sockets evenly over this long, so their reconnects do not all land at once. */
export const RECONNECT_SPREAD_MS = 1000;

export function createRealtime(options: RealtimeOptions = {}): Realtime {
  // An update is checked against the model, then logged, then applied (persistence.ts); pages are snapshotted once stored.
  const extensions: Extension<SocketContext>[] = [ticketAuth, createPersistence(), pageHistory, messages, presence];
  const redisUrl = options.redisUrl ?? config.redisUrl;
  if (redisUrl) {
    const url = new URL(redisUrl);
    extensions.push(new RedisExtension({ host: url.hostname, port: Number(url.port || 6379), options: { password: url.password || undefined, db: Number(url.pathname.slice(1) || 0) }, prefix: 'atrium-rooms', ...(options.name ? { identifier: options.name } : {}) }));
  }
  const hocuspocus = new Hocuspocus<SocketContext>({
    name: options.name ?? null,
    quiet: true,
    debounce: options.debounceMs ?? 2000,
    maxDebounce: options.maxDebounceMs ?? 10_000,
    extensions,
  });

  realtimeSockets(() => hocuspocus.getConnectionsCount());
  realtimeDocuments(() => hocuspocus.getDocumentsCount());

  const connectionsOf = (roomId: string) => hocuspocus.documents.get(roomId)?.getConnections() ?? [];
  const admission = roomAdmission(() => options.maxRoomConnections ?? config.roomMaxConnections);
  const open = new Set<SocketState>();
  /** Each open socket's Hocuspocus side, which reads its frames. */
  const clients = new WeakMap<Peer, ReturnType<Hocuspocus['handleConnection']>>();

  const ws = crossws({
    serverOptions: { maxPayload: MAX_MESSAGE_BYTES },
    hooks: {
      // The ticket is checked before the socket exists: without a valid one
      // the upgrade is answered with an HTTP error and no socket is opened.
      async upgrade(request) {
        if (stopping) return refuse('unavailable', 'This realtime node is stopping: connect again with a fresh ticket.', { 'retry-after': '1' });
        const url = new URL(request.url);
        const match = SOCKET_PATH.exec(url.pathname);
        if (!match) return refuse('not_found', 'No such socket.');
        const kind: RoomKind = match[1] === 'rooms' ? 'room' : 'live';
        const roomId = match[2];
        const ticket = url.searchParams.get('ticket');
        let holder: Awaited<ReturnType<typeof admitSocket>>;
        try {
          holder = ticket ? await admitSocket(ticket, kind, roomId) : 'bad-ticket';
        } catch (error) {
          // Answered as an HTTP request's failure is (503 while the database is down), and counted.
          const failure = failureResponse(error, randomUUID(), 'room socket');
          realtimeSocketRefusals.inc({ code: failure.status === 503 ? 'unavailable' : 'internal_error' });
          return failure;
        }
        if (holder === 'bad-ticket') return refuse('unauthorized', 'A valid ticket is required: POST …/ticket and connect within a minute, once.');
        if (holder === 'no-access') return refuse('not_found', 'No such room (or you cannot see it).');
        const place = admission.take(roomId);
        if (!place) {
          realtimeSocketRefusals.inc({ code: 'rate_limited' });
          return errorResponse('rate_limited', 'This room has as many people connected as it takes; try again later.', { 'retry-after': String(ROOM_FULL_RETRY_SECONDS) });
        }
        const socket: SocketState = { authenticated: false, close: () => {}, place, logged: null };
        const context: SocketContext = { ...holder, roomId, kind, hidden: new Set(holder.hidden), socket };
        return { context: { atrium: context } };
      },
      open(peer) {
        const context = (peer.context as { atrium: SocketContext }).atrium;
        context.socket.close = (code, reason) => peer.close(code, reason);
        context.socket.place.opened();
        open.add(context.socket);
        realtimeSocketsOpened.inc();
        clients.set(peer, hocuspocus.handleConnection(durableTransport(peer, context.socket), peer.request as Request, context));
      },
      message(peer, message) {
        clients.get(peer)?.handleMessage(message.uint8Array());
      },
      close(peer, event) {
        const socket = (peer.context as { atrium?: SocketContext }).atrium?.socket;
        socket?.place.free();
        if (socket) open.delete(socket);
        clients.get(peer)?.handleClose({ code: event.code ?? 1000, reason: event.reason ?? '' });
      },
      error(_peer, error) {
        log.warn('room socket error', { error: String(error) });
      },
    },
  });

  const recheck = async (roomId: string | null) => {
    const connections = roomId ? connectionsOf(roomId) : [...hocuspocus.documents.values()].flatMap((document) => document.getConnections());
    try {
      await recheckSockets(connections);
    } catch (error) {
      log.warn('room access re-check failed', { roomId, error: error instanceof Error ? error.message : String(error) });
    }
  };

  const tell = (roomId: string, what: 'people' | 'sources') => {
    for (const connection of connectionsOf(roomId)) send(connection, { kind: 'changed', what });
  };

  const onEvent = (event: RoomEvent) => {
    if (event.kind === 'access') {
      if (event.roomId) tell(event.roomId, 'people');
      return void recheck(event.roomId);
    }
    const document = hocuspocus.documents.get(event.roomId);
    if (!document) return;
    if (event.kind === 'restored') return void applyLog(document);
    if (event.kind === 'changed') return tell(event.roomId, event.what);
    if (event.kind === 'chat.deleted') {
      for (const connection of connectionsOf(event.roomId)) send(connection, { kind: 'chat.deleted', messageId: event.messageId });
      return;
    }
    void loadMessage(event.messageId).then((loaded) => {
      if (loaded && loaded.roomId === event.roomId) deliverChat(connectionsOf(event.roomId), loaded.message);
    });
  };
  const bus = subscribeRoomEvents(onEvent);
  const timer = setInterval(() => void recheck(null), options.recheckMs ?? ACCESS_RECHECK_MS);
  timer.unref();

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // New sockets are refused from now on (503), but open ones stay for
      // the notice, while the load balancer sees /readyz fail and takes this
      // node out: closed earlier, they would reconnect to it (with
      // `leastconn` it is the emptiest) and be refused.
      const noticeMs = options.noticeMs ?? config.drainNoticeMs;
      if (noticeMs > 0) await new Promise((resolve) => setTimeout(resolve, noticeMs));
      clearInterval(timer);
      // Every socket is told to reconnect (the web client fetches a fresh
      // ticket), spread out so that the reconnects reach the other nodes
      // gradually; its closing makes Hocuspocus store and unload each
      // document, which is awaited before the node stops.
      const sockets = [...open];
      realtimeSocketsDrained.inc(sockets.length);
      for (const [index, socket] of sockets.entries()) {
        if (index > 0) await new Promise((resolve) => setTimeout(resolve, RECONNECT_SPREAD_MS / sockets.length));
        socket.close(RECONNECT_CLOSE_CODE, 'Server restarting: reconnect');
      }
      hocuspocus.flushPendingStores();
      const deadline = Date.now() + 15_000;
      while ((hocuspocus.getDocumentsCount() > 0 || hocuspocus.unloadingDocuments.size > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      // Sockets that did not answer the close handshake are cut.
      ws.closeAll(RECONNECT_CLOSE_CODE, 'Server restarting: reconnect', true);
      await bus.stop();
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
    })());

  return {
    hocuspocus,
    ready: bus.ready,
    stop,
    handleUpgrade(request, socket, head) {
      const path = (request.url ?? '').split('?')[0];
      if (!SOCKET_PATH.test(path)) return false;
      void ws.handleUpgrade(request, socket, head);
      return true;
    },
  };
}
