// The stored keys that may sign secured keys, with each one's HMAC state
// (hmac-screen.ts) computed once when the key is stored or loaded, dropped
// when it is deleted, and grouped by the rights the key grants: a secured
// key has its parent's rights at most, so a call needing `search` is only
// ever signed by a key holding `search` (secured-parents.ts tries no other).
import type { ApiKey } from './api-keys.js';
import { hmacState } from './hmac-screen.js';

/** A key that may sign secured keys, and its HMAC state. */
export interface Signer {
  readonly key: ApiKey;
  readonly state: Int32Array;
}

const NONE: ReadonlySet<Signer> = new Set();

export class SigningKeys {
  private readonly byValue = new Map<string, Signer>();
  /** Right → the signers holding it. */
  private readonly byRight = new Map<string, Set<Signer>>();

  /** Stores `key`'s state (anew when the key changed: its rights may have). */
  add(key: ApiKey): void {
    this.remove(key.value);
    const signer: Signer = { key, state: hmacState(key.value) };
    this.byValue.set(key.value, signer);
    for (const right of key.acl) {
      let holders = this.byRight.get(right);
      if (!holders) this.byRight.set(right, (holders = new Set()));
      holders.add(signer);
    }
  }

  remove(value: string): void {
    const signer = this.byValue.get(value);
    if (!signer) return;
    this.byValue.delete(value);
    for (const right of signer.key.acl) this.byRight.get(right)?.delete(signer);
  }

  clear(): void {
    this.byValue.clear();
    this.byRight.clear();
  }

  /** The signer of the stored key `value` (a value this engine chose to remember, never one a caller sent). */
  get(value: string): Signer | undefined {
    return this.byValue.get(value);
  }

  /** The signers holding `right`. */
  holding(right: string): ReadonlySet<Signer> {
    return this.byRight.get(right) ?? NONE;
  }
}
