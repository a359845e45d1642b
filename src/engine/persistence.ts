// What goes to storage: write operations (JSON, UTF-8) and engine snapshots
// (MessagePack: binary), each sealed in
// a frame that says how it is stored: plain, or AES-GCM encrypted
// (WebCrypto) with `encryptionKey`. Snapshots also carry a SHA-256 of their
// payload so a damaged one is never loaded.
import { encode } from '@msgpack/msgpack';
import { decode } from './msgpack.js'; // keeps "__proto__" keys as data
import { concat } from './bytes.js';

const PLAIN = 0;
const AES_GCM = 1;
const IV_BYTES = 12;
const DIGEST_BYTES = 32;
const SNAPSHOT_MAGIC = [0x4c, 0x4e, 0x54, 0x53]; // "LNTS"


export class StorageError extends Error {}
/** The data cannot be read with the key given (or without one): never fall back, fail the open. */
export class EncryptionKeyError extends StorageError {}

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

export class Codec {
  private constructor(private readonly key: CryptoKey | undefined) {}

  static async create(encryptionKey?: string | Uint8Array): Promise<Codec> {
    return new Codec(encryptionKey === undefined ? undefined : await importKey(encryptionKey));
  }

  private async seal(payload: Uint8Array): Promise<Uint8Array> {
    if (!this.key) return concat([Uint8Array.of(PLAIN), payload]);
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, this.key, payload as Uint8Array<ArrayBuffer>));
    return concat([Uint8Array.of(AES_GCM), iv, sealed]);
  }

  private async unseal(framed: Uint8Array): Promise<Uint8Array> {
    if (framed[0] === PLAIN) return framed.subarray(1);
    if (framed[0] !== AES_GCM) throw new StorageError('unknown storage format');
    if (!this.key) throw new EncryptionKeyError('the data is encrypted: open it with its encryptionKey');
    try {
      const iv = framed.slice(1, 1 + IV_BYTES);
      return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, this.key, framed.slice(1 + IV_BYTES)));
    } catch {
      throw new EncryptionKeyError('cannot decrypt the data: wrong encryptionKey (or damaged data)');
    }
  }

  encodeOperation(op: unknown): Promise<Uint8Array> {
    return this.seal(new TextEncoder().encode(JSON.stringify(op)));
  }

  async decodeOperation(bytes: Uint8Array): Promise<any> {
    return JSON.parse(new TextDecoder().decode(await this.unseal(bytes)));
  }

  async encodeSnapshot(state: unknown): Promise<Uint8Array> {
    const sealed = await this.seal(encode(state));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', sealed as Uint8Array<ArrayBuffer>));
    return concat([Uint8Array.from(SNAPSHOT_MAGIC), digest, sealed]);
  }

  async decodeSnapshot(bytes: Uint8Array): Promise<any> {
    const header = SNAPSHOT_MAGIC.length + DIGEST_BYTES;
    if (bytes.length < header || SNAPSHOT_MAGIC.some((b, i) => bytes[i] !== b)) throw new StorageError('not a snapshot');
    const sealed = bytes.subarray(header);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', sealed as Uint8Array<ArrayBuffer>));
    if (digest.some((b, i) => b !== bytes[SNAPSHOT_MAGIC.length + i])) throw new StorageError('snapshot checksum mismatch');
    return decode(await this.unseal(sealed));
  }
}
