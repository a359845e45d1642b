// The stored keys that may sign secured keys, with each one's HMAC state
// (hmac-screen.ts) computed once when the key is stored or loaded, dropped
// when it is deleted, and grouped by the rights the key grants: a secured
// key has its parent's rights at most, so a call needing `search` is only
// ever signed by a key holding `search` (secured-parents.ts tries no other).
// The states are kept in the WebAssembly core only (SignerSlots), where the
// screen runs: each made as its key is stored once the core is loaded (keys
// held before, as a shared key directory may, get theirs at the first
// screen).
// An unrestricted key (no expiry, referer or index) may sign keys for every
// call its rights allow, so each right keeps the core slots of those apart,
// ready to be copied whole into a screen: a scan of 100,000 keys reads none
// of them one by one (that took ~25 ms, a cache miss or more per key).
import { isUnrestricted, type ApiKey } from './api-keys.js';
import { hmacState, type ScreenedMessage } from './hmac-screen.js';
import { SignerSlots } from '../core/signer-slots.js';
import { isCoreLoaded } from '../core/wasm.js';
import { SlotList } from '../util/slot-list.js';

/** A key that may sign secured keys, and the core's slot holding its HMAC state. */
export interface Signer {
  readonly key: ApiKey;
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
  /** Right → the restricted signers holding it (checked one by one). */
  private readonly restrictedByRight = new Map<string, Set<Signer>>();
  /** Right → the core slots of the unrestricted signers holding it. */
  private readonly unrestrictedByRight = new Map<string, SlotList>();
  /** The signers' states, and the signer in each slot. */
  private slots: SignerSlots | undefined;
  private bySlot: (Signer | undefined)[] = [];
  /** The slots of a screen's candidates (reused: a scan lists every key). */
  private candidates = new Int32Array(64);

  /** Stores `key`'s state (anew when the key changed: its rights may have). */
  add(key: ApiKey): void {
    this.remove(key.value);
    const signer: Signer = { key, slot: NO_SLOT };
    this.byValue.set(key.value, signer);
    for (const right of key.acl) {
      holders(this.byRight, right).add(signer);
      if (!isUnrestricted(key)) holders(this.restrictedByRight, right).add(signer);
    }
    if (this.slots) this.place(signer);
    else if (isCoreLoaded()) this.coreSlots();
  }

  remove(value: string): void {
    const signer = this.byValue.get(value);
    if (!signer) return;
    this.byValue.delete(value);
    for (const right of signer.key.acl) {
      this.byRight.get(right)?.delete(signer);
      this.restrictedByRight.get(right)?.delete(signer);
      if (signer.slot !== NO_SLOT) this.unrestrictedByRight.get(right)?.delete(signer.slot);
    }
    if (signer.slot !== NO_SLOT) {
      this.slots!.free(signer.slot);
      this.bySlot[signer.slot] = undefined;
    }
  }

  clear(): void {
    this.byValue.clear();
    this.byRight.clear();
    this.restrictedByRight.clear();
    this.unrestrictedByRight.clear();
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

  /** The first of `signers` whose key signed `message` (in their order), and the number screened up to it. */
  screenEach(message: ScreenedMessage, signers: readonly Signer[]): Screened {
    this.coreSlots();
    this.reserveCandidates(signers.length);
    signers.forEach((signer, i) => (this.candidates[i] = signer.slot));
    return this.screenCandidates(message, signers.length);
  }

  /**
   * A signer of `message` among those holding `right`, but `skipped`: every
   * unrestricted one, and the restricted ones `admitted` selects.
   */
  screenHolders(message: ScreenedMessage, right: string, admitted: (signer: Signer) => boolean, skipped: ReadonlySet<Signer>): Screened {
    this.coreSlots();
    const unrestricted = this.unrestrictedByRight.get(right);
    const restricted = this.restrictedByRight.get(right) ?? NONE;
    this.reserveCandidates((unrestricted?.size ?? 0) + restricted.size);
    let count = 0;
    if (unrestricted) {
      this.candidates.set(unrestricted.items);
      count = unrestricted.size;
      count = this.withoutPlaces(count, [...skipped].map((signer) => unrestricted.placeOf(signer.slot)).filter((place) => place >= 0));
    }
    for (const signer of restricted) {
      if (admitted(signer) && !skipped.has(signer)) this.candidates[count++] = signer.slot;
    }
    return this.screenCandidates(message, count);
  }

  /** Takes the candidates at `places` out of the first `count`, the others kept in order; returns the count left. */
  private withoutPlaces(count: number, places: number[]): number {
    places.sort((a, b) => a - b);
    let to = places[0];
    places.forEach((place, i) => {
      const end = i + 1 < places.length ? places[i + 1] : count;
      this.candidates.copyWithin(to, place + 1, end);
      to += end - place - 1;
    });
    return count - places.length;
  }

  private screenCandidates(message: ScreenedMessage, count: number): Screened {
    const place = count === 0 ? -1 : this.slots!.screen(message, this.candidates, count);
    return place < 0 ? { signer: undefined, screened: count } : { signer: this.bySlot[this.candidates[place]], screened: place + 1 };
  }

  /** The core's slots, made (and filled with the states of the keys held so far) on first use. */
  private coreSlots(): SignerSlots {
    if (!this.slots) {
      this.slots = new SignerSlots();
      for (const signer of this.byValue.values()) this.place(signer);
    }
    return this.slots;
  }

  private place(signer: Signer): void {
    signer.slot = this.coreSlots().store(hmacState(signer.key.value));
    this.bySlot[signer.slot] = signer;
    if (!isUnrestricted(signer.key)) return;
    for (const right of signer.key.acl) {
      let slots = this.unrestrictedByRight.get(right);
      if (!slots) this.unrestrictedByRight.set(right, (slots = new SlotList()));
      slots.add(signer.slot);
    }
  }

  private reserveCandidates(count: number): void {
    if (count > this.candidates.length) this.candidates = new Int32Array(Math.max(count, this.candidates.length * 2));
  }
}

function holders(byRight: Map<string, Set<Signer>>, right: string): Set<Signer> {
  let set = byRight.get(right);
  if (!set) byRight.set(right, (set = new Set()));
  return set;
}
