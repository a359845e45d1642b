// objectID → record id for the live records of an index. A Map<string, number>
// costs about 37 bytes an entry in V8; this open-addressing table (linear
// probing) holds only record ids, 4 bytes a slot and at most half the slots
// used, and compares the objectID the record store keeps anyway.

const EMPTY = -1;
/** A slot whose record was deleted: probing goes on past it. */
const DELETED = -2;
const MIN_SLOTS = 16;

/** FNV-1a over the UTF-16 units, then a final mix so sequential ids spread over the slots. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}

export class ObjectIdTable {
  private slots = new Int32Array(MIN_SLOTS).fill(EMPTY);
  /** Slots not EMPTY (live ids and DELETED marks). */
  private used = 0;
  private live = 0;

  /** `objectIDOf(id)` must answer for every id in the table. */
  constructor(private readonly objectIDOf: (id: number) => string | undefined) {}

  /** Live ids. */
  get size(): number { return this.live; }

  get(objectID: string): number | undefined {
    const slot = this.find(objectID);
    return slot < 0 ? undefined : this.slots[slot];
  }

  /** Adds the id of an objectID not in the table. */
  add(objectID: string, id: number): void {
    if ((this.used + 1) * 2 > this.slots.length) this.resize();
    const mask = this.slots.length - 1;
    let slot = hash(objectID) & mask;
    while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
    if (this.slots[slot] === EMPTY) this.used++;
    this.slots[slot] = id;
    this.live++;
  }

  /** Removes an objectID (while `objectIDOf` still knows its id); returns the id it had. */
  delete(objectID: string): number | undefined {
    const slot = this.find(objectID);
    if (slot < 0) return undefined;
    const id = this.slots[slot];
    this.slots[slot] = DELETED;
    this.live--;
    return id;
  }

  private find(objectID: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hash(objectID) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return -1;
      if (id >= 0 && this.objectIDOf(id) === objectID) return slot;
    }
  }

  /** Makes room for `count` ids in all, so adding that many never rebuilds the table (one rebuild, of what it holds). */
  reserve(count: number): void {
    if ((count + 1) * 2 > this.slots.length) this.resize(count);
  }

  /** Rebuilds the slots for the live ids, a quarter full at most (deleted marks dropped), or `room` ids. */
  private resize(room = 0): void {
    const ids = this.slots.filter((id) => id >= 0);
    let length = MIN_SLOTS;
    while (length < (Math.max(ids.length, room) + 1) * 4) length *= 2;
    this.slots = new Int32Array(length).fill(EMPTY);
    this.used = 0;
    this.live = 0;
    for (const id of ids) this.add(this.objectIDOf(id)!, id);
  }
}
