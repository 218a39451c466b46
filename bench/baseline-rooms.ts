// The baseline for bench/rooms.ts: a bare Yjs relay over `ws`. One Y.Doc per
// room (the URL path); a new socket gets the room's state, every binary
// message is a Yjs update that is applied and sent to the room's other
// sockets. No tickets, no auth, no awareness, no persistence: the least a
// server can do to fan an edit out.
import { createServer } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import * as Y from 'yjs';

type Room = { doc: Y.Doc; sockets: Set<WebSocket> };
const rooms = new Map<string, Room>();

const server = createServer((_request, response) => {
  response.writeHead(404).end();
});
const wss = new WebSocketServer({ server, maxPayload: 2 * 1024 * 1024 });

wss.on('connection', (socket, request) => {
  const name = new URL(request.url ?? '/', 'http://relay').pathname;
  let room = rooms.get(name);
  if (!room) {
    room = { doc: new Y.Doc(), sockets: new Set() };
    rooms.set(name, room);
  }
  const { doc, sockets } = room;
  sockets.add(socket);
  socket.send(Y.encodeStateAsUpdate(doc));
  socket.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) return;
    const update = new Uint8Array(data);
    Y.applyUpdate(doc, update);
    for (const other of sockets) if (other !== socket && other.readyState === other.OPEN) other.send(update);
  });
  socket.on('close', () => sockets.delete(socket));
});

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => {
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});
