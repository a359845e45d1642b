// The stored keys that may sign secured keys, with each one's HMAC state
// (hmac-screen.ts) computed once when the key is stored or loaded, dropped
// when it is deleted, and grouped by the rights the key grants: a secured
// key has its parent's rights at most, so a call needing `search` is only
// ever signed by a key holding `search` (secured-parents.ts tries no other).
// The states are kept in the WebAssembly core too (SignerSlots), where the
// screen runs: from the first key stored once the core is loaded (keys held
// before, as a shared key directory may, are copied there when it is).
import type { ApiKey } from './api-keys.js';
import { hmacState, type ScreenedMessage } from './hmac-screen.js';
import { SignerSlots } from '../core/signer-slots.js';
import { isCoreLoaded } from '../core/wasm.js';

/** A key that may sign secured keys, its HMAC state and the core's slot holding it. */
export interface Signer {
  readonly key: ApiKey;
  readonly state: Int32Array;
  /** NO_SLOT until the core holds the state. */
  slot: number;
}

const NO_SLOT = -1;
const NONE: ReadonlySet<Signer> = new Set();

/** What a screen found: the first signer of the message, if any, after `screened` tries. */
export interface Screened {
  signer: Signer | undefined;
  screened: number;
}

export class SigningKeys {
  private readonly byValue = new Map<string, Signer>();
  /** Right → the signers holding it. */
  private readonly byRight = new Map<string, Set<Signer>>();
  /** The core's copy of the states, and the signer in each slot. */
  private slots: SignerSlots | undefined;
  private bySlot: (Signer | undefined)[] = [];
  /** The slots of a screen's candidates (reused: a scan lists every key). */
  private candidates = new Int32Array(64);

  /** Stores `key`'s state (anew when the key changed: its rights may have). */
  add(key: ApiKey): void {
    this.remove(key.value);
    const signer: Signer = { key, state: hmacState(key.value), slot: NO_SLOT };
    if (this.slots || isCoreLoaded()) this.place(signer);
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
    if (signer.slot !== NO_SLOT) {
      this.slots!.free(signer.slot);
      this.bySlot[signer.slot] = undefined;
    }
  }

  clear(): void {
    this.byValue.clear();
    this.byRight.clear();
    // a new core instance when one is needed again: the old one's memory goes with it
    this.slots = undefined;
    this.bySlot = [];
  }

  /** The signer of the stored key `value` (a value this engine chose to remember, never one a caller sent). */
  get(value: string): Signer | undefined {
    return this.byValue.get(value);
  }

  /** The signers holding `right`. */
  holding(right: string): ReadonlySet<Signer> {
    return this.byRight.get(right) ?? NONE;
  }

  /**
   * The first of `signers` that `tried` selects whose key signed `message`
   * (in their order), screened in the core; the number screened counts
   * those tried up to it.
   */
  screen(message: ScreenedMessage, signers: Iterable<Signer>, tried: (signer: Signer) => boolean): Screened {
    const slots = this.coreSlots();
    let count = 0;
    for (const signer of signers) {
      if (!tried(signer)) continue;
      if (count === this.candidates.length) this.growCandidates();
      this.candidates[count++] = signer.slot;
    }
    const place = count === 0 ? -1 : slots.screen(message, this.candidates, count);
    return place < 0 ? { signer: undefined, screened: count } : { signer: this.bySlot[this.candidates[place]], screened: place + 1 };
  }

  /** The core's slots, made (and filled with the states held so far) on first use. */
  private coreSlots(): SignerSlots {
    if (!this.slots) {
      this.slots = new SignerSlots();
      for (const signer of this.byValue.values()) this.place(signer);
    }
    return this.slots;
  }

  private place(signer: Signer): void {
    signer.slot = this.coreSlots().store(signer.state);
    this.bySlot[signer.slot] = signer;
  }

  private growCandidates(): void {
    const grown = new Int32Array(this.candidates.length * 2);
    grown.set(this.candidates);
    this.candidates = grown;
  }
}
