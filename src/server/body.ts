// A request's body as text: its bytes read up to a limit (413 past it),
// decompressed as its Content-Encoding says (gzip, deflate, br; the limit
// holds after decompression too), and decoded as strict UTF-8. What cannot
// be read is a BodyError: the answer's status and message.
import { isAscii, isUtf8, transcode } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** A request body that cannot be read: an answer status and message. */
export class BodyError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const DECOMPRESS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync,
};

async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyError(413, 'Request body too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyError(413, 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function decompress(raw: Buffer, encoding: string | undefined, limit: number): Buffer {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return raw;
  const inflate = DECOMPRESS[name];
  if (!inflate) throw new BodyError(400, `Unsupported Content-Encoding: ${name.slice(0, 40)}`);
  try {
    return inflate(raw, { maxOutputLength: limit });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyError(413, 'Request body too large');
    throw new BodyError(400, `Request body is not valid ${name}`);
  }
}

/** The body of `req` as text, at most `limit` bytes before and after decompression. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return textOf(decompress(await readBytes(req, limit), req.headers['content-encoding'], limit));
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * A body's text, from its UTF-8 (a byte-order mark at its start dropped, as
 * TextDecoder does). Text beyond ASCII is transcoded to UTF-16 in one native
 * call: TextDecoder took 13-24 ms for a 1.4 MB batch of TED talks (their
 * curly quotes make a two-byte string), transcoding 2-6 ms, and in a burst
 * of writes reading bodies held a tenth of the server's thread. The text of
 * a body over 1 MB is then kept outside V8's heap, which brings more major
 * collections (10 against 1 in 200 such bodies parsed beside a live heap);
 * with them counted a body still cost 20-22 ms against 35 (RESULTS.md).
 */
export function textOf(bytes: Buffer): string {
  if (isAscii(bytes)) return bytes.toString('latin1');
  if (!isUtf8(bytes)) throw new BodyError(400, 'Request body is not valid UTF-8');
  const text = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? bytes.subarray(UTF8_BOM.length) : bytes;
  return transcode(text, 'utf8', 'utf16le').toString('utf16le');
}

