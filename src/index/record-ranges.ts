// Per record id, the range of a column's entries that are its own. A facet
// or numeric column appends a record's entries together, records in the
// order of their ids (an index gives each record saved a new, larger id), so
// a record's entries are one run of the column. A count over a few of a
// search's candidates then reads their entries only: read value by value,
// a facet's counts read every entry of the column at each search (3.5 ms of
// a 4.2 ms answer with three facets over 100k records, for ~550 candidates).

export class RecordRanges {
  /** Per record id up to the last one noted, where its entries start. */
  private starts = new Uint32Array(16);
  /** The last record id noted (-1: none). */
  private last = -1;
  /** Entries noted in all. */
  private total = 0;

  /**
   * Notes that the column's next entry is record `id`'s. Ids come in
   * ascending order, each record's entries together: an entry of an id
   * below the last one would break the runs, and is refused.
   */
  append(id: number): void {
    if (id < this.last) throw new Error(`record ${id} noted after record ${this.last}: a column's records are appended in id order`);
    if (id > this.last) this.startRecord(id);
    this.total++;
  }

  /** The ids up to the last record noted: how many ids the column spans. */
  get span(): number { return this.last + 1; }

  /** Where record `id`'s entries start. */
  from(id: number): number {
    return id <= this.last ? this.starts[id] : this.total;
  }

  /** Where record `id`'s entries end (its start when it has none). */
  to(id: number): number {
    return id < this.last ? this.starts[id + 1] : this.total;
  }

  /** Starts record `id`'s run at the current end; the records skipped since the last have none. */
  private startRecord(id: number): void {
    if (id >= this.starts.length) {
      const grown = new Uint32Array(Math.max(id + 1, this.starts.length * 2));
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts.fill(this.total, this.last + 1, id + 1);
    this.last = id;
  }
}
