// An answer written straight to a socket, for the connections node:http
// gives no response object: one refused for its address, a CONNECT, a
// request it could not read. JSON like every other refusal, then closed.
import { STATUS_CODES } from 'node:http';

/** The bytes of a JSON refusal that closes the connection. */
export function rawAnswer(status: number, message: string): string {
  const body = JSON.stringify({ message, status });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'content-type: application/json; charset=UTF-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'access-control-allow-origin: *',
    'connection: close',
    '',
    body,
  ].join('\r\n');
}
