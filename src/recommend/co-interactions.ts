// Items that go together because the same group interacted with both: a
// group is a user's day of conversions (bought together) or a user
// (related products). Kept as two inverted lists, group → its items and
// item → its groups, so that learning an event is two appends and the
// pairs are counted only for the item asked about, at answer time, over
// its most recent groups. Counting every pair as events arrive would take
// hundreds of bytes per pair (a million events make tens of millions).

/** The most recent distinct items a group keeps (older ones still count for the groups they were in). */
const GROUP_ITEMS = 30;
/** The most recent groups of an item its pairs are counted over. */
const COUNTED_GROUPS = 1000;
/** Similarities are told apart to a millionth... */
const SIMILARITY_STEPS = 1_000_000;
/** ...above the item numbers (below 2^32: keys stay exact in a double, under 2^52). */
const ITEM_SPAN = 2 ** 32;

export interface CoInteractionsSnapshot { groups: string[]; groupItems: number[][]; itemGroups: number[][]; events: number }

export class CoInteractions {
  private readonly groupIds = new Map<string, number>();
  private readonly groups: string[] = [];
  /** Per group: its distinct items, most recent last (at most GROUP_ITEMS). */
  private readonly groupItems: number[][] = [];
  /** Per item: the groups it was in, in order. */
  private readonly itemGroups: number[][] = [];
  /** Events learnt (the model's minimum counts them). */
  events = 0;
  /** Scratch of `neighbours`: shared groups per item. */
  private shared = new Uint32Array(0);

  /** `group` interacted with `item`. */
  add(group: string, item: number): void {
    this.events++;
    let g = this.groupIds.get(group);
    if (g === undefined) {
      g = this.groups.length;
      this.groupIds.set(group, g);
      this.groups.push(group);
      this.groupItems.push([]);
    }
    const items = this.groupItems[g];
    const at = items.indexOf(item);
    if (at >= 0) { items.splice(at, 1); items.push(item); return; }
    items.push(item);
    if (items.length > GROUP_ITEMS) items.shift();
    (this.itemGroups[item] ??= []).push(g);
  }

  /** How many groups an item was in. */
  countOf(item: number): number { return this.itemGroups[item]?.length ?? 0; }

  /**
   * The items sharing groups with `item`, most similar first, at most
   * `limit`, each with its cosine similarity (shared groups over the
   * geometric mean of both items' groups), 0 to 1. Items of equal
   * similarity (to a millionth) come highest item number first.
   */
  neighbours(item: number, limit: number): Array<[number, number]> {
    const groups = this.itemGroups[item] ?? [];
    const counted = Math.min(groups.length, COUNTED_GROUPS);
    const shared = this.sharedScratch();
    const touched: number[] = [];
    for (let i = groups.length - counted; i < groups.length; i++) {
      for (const other of this.groupItems[groups[i]]) if (other !== item && shared[other]++ === 0) touched.push(other);
    }
    // (similarity in millionths, item) packed in one float sorts natively, without a comparator
    const keys = new Float64Array(touched.length);
    touched.forEach((other, i) => {
      const similarity = shared[other] / Math.sqrt(counted * Math.min(this.countOf(other), COUNTED_GROUPS));
      keys[i] = Math.round(similarity * SIMILARITY_STEPS) * ITEM_SPAN + other;
      shared[other] = 0;
    });
    keys.sort();
    const out: Array<[number, number]> = [];
    for (let i = keys.length - 1; i >= 0 && out.length < limit; i--) {
      out.push([keys[i] % ITEM_SPAN, Math.floor(keys[i] / ITEM_SPAN) / SIMILARITY_STEPS]);
    }
    return out;
  }

  /** A zeroed count per item (zeroed again after each use: only the items counted are touched). */
  private sharedScratch(): Uint32Array {
    if (this.shared.length < this.itemGroups.length) this.shared = new Uint32Array(Math.max(this.itemGroups.length, this.shared.length * 2));
    return this.shared;
  }

  snapshot(): CoInteractionsSnapshot {
    return { groups: this.groups, groupItems: this.groupItems, itemGroups: this.itemGroups, events: this.events };
  }

  static restore(s: CoInteractionsSnapshot): CoInteractions {
    const out = new CoInteractions();
    s.groups.forEach((g, i) => { out.groupIds.set(g, i); out.groups.push(g); });
    for (const items of s.groupItems) out.groupItems.push(items);
    s.itemGroups.forEach((groups, item) => { if (groups) out.itemGroups[item] = groups; });
    out.events = s.events;
    return out;
  }
}
