// A set of small non-negative integers (slots) kept end to end in an
// Int32Array, to be copied whole in one call: add and delete in constant
// time, the order not kept (a deleted slot's place takes the last one).

export class SlotList {
  private slots: Int32Array<ArrayBuffer> = new Int32Array(16);
  /** Slot → its place in `slots`, plus one (0: not held). */
  private placesPlusOne: Int32Array<ArrayBuffer> = new Int32Array(16);
  size = 0;

  /** The slots, end to end (a view: valid until the next change). */
  get items(): Int32Array {
    return this.slots.subarray(0, this.size);
  }

  /** The place of `slot` in `items`, or -1. */
  placeOf(slot: number): number {
    return slot < this.placesPlusOne.length ? this.placesPlusOne[slot] - 1 : -1;
  }

  add(slot: number): void {
    if (this.placeOf(slot) >= 0) return;
    if (this.size === this.slots.length) this.slots = grown(this.slots, this.size * 2);
    if (slot >= this.placesPlusOne.length) this.placesPlusOne = grown(this.placesPlusOne, Math.max(slot + 1, this.placesPlusOne.length * 2));
    this.slots[this.size] = slot;
    this.placesPlusOne[slot] = ++this.size;
  }

  delete(slot: number): void {
    const place = this.placeOf(slot);
    if (place < 0) return;
    const last = this.slots[--this.size];
    this.slots[place] = last;
    this.placesPlusOne[last] = place + 1;
    this.placesPlusOne[slot] = 0;
  }
}

function grown(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(length);
  copy.set(array);
  return copy;
}
