// At most so many open connections per remote address: one client cannot
// hold every socket (and file descriptor) of the server. A connection past
// the limit is answered at once, 503 with a JSON message, and closed; no
// request it sends is served. The address is the socket's: behind a
// reverse proxy every connection is the proxy's, so raise the limit there.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { rawAnswer } from './raw-answer.js';

export const MAX_CONNECTIONS_PER_ADDRESS = 256;

const TOO_MANY = rawAnswer(503, 'Too many connections from this address');

/** Connections answered 503: the server's request handler leaves them alone. */
const refused = new WeakSet<Socket>();

export function isRefused(socket: Socket): boolean {
  return refused.has(socket);
}

/** Counts each address's open connections on `server`; `max` 0 = no limit. */
export function limitConnections(server: Server, max = MAX_CONNECTIONS_PER_ADDRESS): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  // before the HTTP parser's listener: the refusal is written before anything else
  server.prependListener('connection', (socket: Socket) => {
    const address = (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) return refuse(socket);
    open.set(address, count);
    socket.once('close', () => {
      const left = open.get(address)! - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

function refuse(socket: Socket): void {
  refused.add(socket);
  socket.on('error', () => {}); // the client may be gone already
  socket.end(TOO_MANY);
  // whatever the client still sends is not read: drop the socket once the answer is out
  socket.once('finish', () => socket.destroy());
}
