// API keys by value, as the engine holds them (its own, or the application's
// shared ones: KeyDirectory), kept with what authentication reads in time
// that does not grow with their number: each key's digest, to find the key
// a caller sent, and each key's HMAC state, to find a secured key's parent
// (signing-keys.ts). Every change goes through set, delete and clear, so
// both follow the keys whichever path changed them.
import type { ApiKey } from './api-keys.js';
import { constantTimeEqual } from './constant-time.js';
import { sha256Hex } from './hmac-screen.js';
import { SigningKeys } from './signing-keys.js';

export class KeyMap extends Map<string, ApiKey> {
  /** The keys by the SHA-256 of their value (see find). */
  private readonly byDigest = new Map<string, ApiKey>();
  readonly signers = new SigningKeys();

  override set(value: string, key: ApiKey): this {
    super.set(value, key);
    this.byDigest.set(sha256Hex(value), key);
    this.signers.add(key);
    return this;
  }

  override delete(value: string): boolean {
    if (!super.delete(value)) return false;
    this.byDigest.delete(sha256Hex(value));
    this.signers.remove(value);
    return true;
  }

  override clear(): void {
    super.clear();
    this.byDigest.clear();
    this.signers.clear();
  }

  /**
   * The key whose value a caller sent. Looked up by the value's digest: how
   * long the lookup takes depends on the digest, which tells nothing of any
   * stored value, where comparing the values themselves in a hash table
   * could end early on a common prefix (and comparing every stored key in
   * constant time cost ~5 µs per key: 0.5 s a call with 100,000 keys).
   */
  find(value: string): ApiKey | undefined {
    const key = this.byDigest.get(sha256Hex(value));
    return key && constantTimeEqual(key.value, value) ? key : undefined;
  }
}
