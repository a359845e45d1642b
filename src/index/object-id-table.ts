// objectID → record id for the live records of an index. A Map<string, number>
// costs about 37 bytes an entry in V8; this open-addressing table (linear
// probing) holds only record ids, 4 bytes a slot and at most half the slots
// used, and compares the objectID the record store keeps anyway. Each id's
// hash is kept too (4 bytes a record id): a rebuild places the ids by their
// hashes, and a probe reads an objectID only where the hashes match. Reading
// and hashing every objectID again at each rebuild took a twentieth of an
// import of the 135k cities.

const EMPTY = -1;
/** A slot whose record was deleted: probing goes on past it. */
const DELETED = -2;
const MIN_SLOTS = 16;

/** FNV-1a over the UTF-16 units, then a final mix so sequential ids spread over the slots (a signed 32-bit integer). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

export class ObjectIdTable {
  private slots = new Int32Array(MIN_SLOTS).fill(EMPTY);
  /** By record id, the hash of the objectID it was added with. */
  private hashes = new Int32Array(MIN_SLOTS);
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
    if (id >= this.hashes.length) this.growHashes(id + 1);
    const h = hash(objectID);
    this.hashes[id] = h;
    this.place(id, h);
  }

  /** Puts an id in the first free slot from its hash's. */
  private place(id: number, h: number): void {
    const mask = this.slots.length - 1;
    let slot = h & mask;
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
    const h = hash(objectID);
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return -1;
      if (id >= 0 && this.hashes[id] === h && this.objectIDOf(id) === objectID) return slot;
    }
  }

  /** Makes room for `count` ids in all, so adding that many never rebuilds the table (one rebuild, of what it holds). */
  reserve(count: number): void {
    if ((count + 1) * 2 > this.slots.length) this.resize(count);
    if (count > this.hashes.length) this.growHashes(count);
  }

  /** Room for the hashes of record ids up to `length` (doubling: ids are issued in order). */
  private growHashes(length: number): void {
    const grown = new Int32Array(Math.max(length, this.hashes.length * 2));
    grown.set(this.hashes);
    this.hashes = grown;
  }

  /** Rebuilds the slots for the live ids, a quarter full at most (deleted marks dropped), or `room` ids. */
  private resize(room = 0): void {
    const previous = this.slots;
    let length = MIN_SLOTS;
    while (length < (Math.max(this.live, room) + 1) * 4) length *= 2;
    this.slots = new Int32Array(length).fill(EMPTY);
    this.used = 0;
    this.live = 0;
    for (const id of previous) if (id >= 0) this.place(id, this.hashes[id]);
  }
}
