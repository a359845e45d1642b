// What goes to storage: write operations (JSON, UTF-8) and engine snapshots
// (MessagePack: binary), each sealed in a frame that says how it is stored:
// plain, or AES-GCM encrypted (WebCrypto) with `encryptionKey`.
//
// A snapshot ("LNT2") is the magic, then sections (see snapshot-sections.ts),
// each: u32 length of what follows the digest, the SHA-256 of that (hashed off
// the main thread by WebCrypto), and the sealed section: its number (u32),
// then its payload. A damaged section fails its digest; a section moved fails
// its number; a wrong key fails to unseal sections whose digest holds.
// Snapshots of Lantern 0.1.0 ("LNTS": the magic, a SHA-256, the whole state
// sealed in one piece) are still read; what the state holds, and how a
// snapshot of an older format is upgraded, is snapshot-upgrade.ts's.
import { decode } from '../util/msgpack.js'; // keeps "__proto__" keys as data
import { ByteWriter, concat } from '../util/bytes.js';
import { cut, join, type CutState } from './snapshot-sections.js';
import { MissingEncryptionKeyError, StorageError } from '../storage/errors.js';

const PLAIN = 0;
const AES_GCM = 1;
const IV_BYTES = 12;
const DIGEST_BYTES = 32;
const SNAPSHOT_MAGIC = [0x4c, 0x4e, 0x54, 0x32]; // "LNT2"
const WHOLE_SNAPSHOT_MAGIC = [0x4c, 0x4e, 0x54, 0x53]; // "LNTS", before sections
const SECTION_HEADER = 4 + DIGEST_BYTES;
/** Room the operations' scratch keeps between operations: one larger is encoded in an array let go after it. */
const KEPT_SCRATCH = 8 << 20;

const hasMagic = (bytes: Uint8Array, magic: number[]) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
const u32 = (n: number) => new Uint8Array(Uint32Array.of(n).buffer);
const noPause = async () => {};

/**
 * A sealed piece that does not decrypt with the key given. AES-GCM fails the
 * same way for a wrong key and for damaged bytes: recovery tells them apart
 * (a key that decrypts no piece at all is wrong, see recovery.ts).
 */
export class UndecryptableError extends StorageError {
  override name = 'UndecryptableError';
  constructor() {
    super('it does not decrypt with the encryptionKey given (damaged, or another key)');
  }
}

/** A passphrase becomes an AES-GCM key through PBKDF2; raw 16/32-byte keys are used as they are. */
async function importKey(secret: string | Uint8Array): Promise<CryptoKey> {
  if (typeof secret !== 'string') {
    return crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
  }
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', salt: new TextEncoder().encode('lantern-search/encryption-at-rest'), iterations: 100_000, hash: 'SHA-256' },
    material, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'],
  );
}

/** Where operations are encoded, then copied out at their size. */
const operationScratch = new ByteWriter(1 << 16);

/**
 * What `write` appends (after the PLAIN tag when `tagged`), copied out of a
 * scratch array kept from one operation to the next: an import's batch of
 * 1,000 records (~430 KB) encoded into a fresh array, then copied into
 * another behind the tag, cost several times the encoding itself (fresh
 * memory).
 */
function writtenOnce<T>(tagged: boolean, write: (writer: ByteWriter) => T): { bytes: Uint8Array; written: T } {
  operationScratch.clear();
  if (tagged) operationScratch.appendByte(PLAIN);
  const written = write(operationScratch);
  const bytes = operationScratch.view().slice();
  if (operationScratch.capacity > KEPT_SCRATCH) operationScratch.take();
  return { bytes, written };
}

/** An operation sealed (to store), its plain UTF-8 (a view of it when plain), and what wrote it gave. */
export interface SealedOperation<T> { sealed: Uint8Array; utf8: Uint8Array; written: T }

export class Codec {
  /** Sealed pieces this codec decrypted: proof that its key is the data's. */
  unsealed = 0;

  private constructor(private readonly key: CryptoKey | undefined) {}

  /** Whether it encrypts what it seals (it was given a key). */
  get encrypts(): boolean { return this.key !== undefined; }

  static async create(encryptionKey?: string | Uint8Array): Promise<Codec> {
    return new Codec(encryptionKey === undefined ? undefined : await importKey(encryptionKey));
  }

  /** Seals the payload made of `parts` end to end (copied once, into the frame when plain). */
  private async seal(...parts: Uint8Array[]): Promise<Uint8Array> {
    if (!this.key) return concat([Uint8Array.of(PLAIN), ...parts]);
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const payload = parts.length === 1 ? parts[0] : concat(parts);
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, this.key, payload as Uint8Array<ArrayBuffer>));
    return concat([Uint8Array.of(AES_GCM), iv, sealed]);
  }

  private async unseal(framed: Uint8Array): Promise<Uint8Array> {
    if (framed[0] === PLAIN) return framed.subarray(1);
    if (framed[0] !== AES_GCM) throw new StorageError('unknown storage format');
    if (!this.key) throw new MissingEncryptionKeyError();
    let plain: Uint8Array;
    try {
      const iv = framed.slice(1, 1 + IV_BYTES);
      plain = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, this.key, framed.slice(1 + IV_BYTES)));
    } catch {
      throw new UndecryptableError();
    }
    this.unsealed++;
    return plain;
  }

  encodeOperation(op: unknown): Promise<Uint8Array> {
    return this.encodeOperationText(JSON.stringify(op));
  }

  /** encodeOperation of an operation already written as JSON: its UTF-8 sealed, byte for byte what seal(TextEncoder#encode) makes. */
  encodeOperationText(text: string): Promise<Uint8Array> {
    return this.encodeOperationWith((writer) => writer.appendUtf8(text)).then(({ sealed }) => sealed);
  }

  /** encodeOperation of an operation whose JSON `write` appends as UTF-8 to the writer it is given. */
  encodeOperationWith<T>(write: (writer: ByteWriter) => T): Promise<SealedOperation<T>> {
    const { bytes, written } = writtenOnce(!this.key, write); // what JSON cannot hold throws here, before any promise
    if (!this.key) return Promise.resolve({ sealed: bytes, utf8: bytes.subarray(1), written });
    return this.seal(bytes).then((sealed) => ({ sealed, utf8: bytes, written }));
  }

  async decodeOperation(bytes: Uint8Array): Promise<unknown> {
    return JSON.parse(new TextDecoder().decode(await this.unseal(bytes)));
  }

  /**
   * The snapshot of `state` as pieces to store end to end (the magic, then
   * a header and a payload per section), each encoded when asked for and let
   * go once given: a large store's snapshot is never whole in memory. `pause`
   * is awaited between sections.
   */
  async encodeSnapshot(state: unknown, pause: () => Promise<void> = noPause): Promise<AsyncIterable<Uint8Array>> {
    return this.sealedSections(await cut(state, pause), pause);
  }

  private async *sealedSections(sections: CutState, pause: () => Promise<void>): AsyncIterable<Uint8Array> {
    yield Uint8Array.from(SNAPSHOT_MAGIC);
    for (let i = 0; i < sections.count; i++) {
      const sealed = await this.seal(u32(i), sections.take(i));
      const header = new Uint8Array(SECTION_HEADER);
      new DataView(header.buffer).setUint32(0, sealed.length, true);
      header.set(await sha256(sealed), 4);
      yield header;
      yield sealed;
      await pause();
    }
  }

  /** The state a snapshot holds; `pause` is awaited between sections. */
  async decodeSnapshot(bytes: Uint8Array, pause: () => Promise<void> = noPause): Promise<unknown> {
    if (hasMagic(bytes, WHOLE_SNAPSHOT_MAGIC)) return this.decodeWholeSnapshot(bytes);
    if (!hasMagic(bytes, SNAPSHOT_MAGIC)) throw new StorageError('not a snapshot');
    const sections = sectionsOf(bytes);
    const payload = async (i: number) => {
      const sealed = sections[i];
      if (!sameBytes(await sha256(sealed.bytes), sealed.digest)) throw new StorageError(`snapshot checksum mismatch (section ${i})`);
      const numbered = await this.unseal(sealed.bytes);
      if (numbered.length < 4 || new DataView(numbered.buffer, numbered.byteOffset, 4).getUint32(0, true) !== i) {
        throw new StorageError(`snapshot section ${i} is out of place`);
      }
      return numbered.subarray(4);
    };
    try {
      return await join(sections.length, payload, pause);
    } catch (e) {
      if (e instanceof StorageError) throw e;
      throw new StorageError(`unreadable snapshot (${(e as Error).message})`);
    }
  }

  private async decodeWholeSnapshot(bytes: Uint8Array): Promise<unknown> {
    const header = WHOLE_SNAPSHOT_MAGIC.length + DIGEST_BYTES;
    if (bytes.length < header) throw new StorageError('not a snapshot');
    const sealed = bytes.subarray(header);
    if (!sameBytes(await sha256(sealed), bytes.subarray(WHOLE_SNAPSHOT_MAGIC.length, header))) throw new StorageError('snapshot checksum mismatch');
    return decode(await this.unseal(sealed));
  }
}

/** The sections of a snapshot, found by their lengths (views: nothing is copied). */
function sectionsOf(bytes: Uint8Array): Array<{ digest: Uint8Array; bytes: Uint8Array }> {
  const sections: Array<{ digest: Uint8Array; bytes: Uint8Array }> = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = SNAPSHOT_MAGIC.length;
  while (at < bytes.length) {
    if (at + SECTION_HEADER > bytes.length) throw new StorageError('snapshot cut short (in a section header)');
    const end = at + SECTION_HEADER + view.getUint32(at, true);
    if (end > bytes.length) throw new StorageError('snapshot cut short (in a section)');
    sections.push({ digest: bytes.subarray(at + 4, at + SECTION_HEADER), bytes: bytes.subarray(at + SECTION_HEADER, end) });
    at = end;
  }
  if (sections.length === 0) throw new StorageError('snapshot cut short (no sections)');
  return sections;
}
