// Stand-in: an exact vector space in plain JavaScript, with the interface of
// the core's (replaced by the WebAssembly implementation).
export interface NearestVectors { labels: Int32Array; similarities: Float32Array }
export interface VectorSpaceOptions { links?: number; efConstruction?: number; efSearch?: number; exactBelow?: number }

export class VectorSpace {
  private readonly vectors = new Map<number, Float32Array>();
  constructor(readonly dimensions: number, _options: VectorSpaceOptions = {}) {}

  get size(): number { return this.vectors.size; }
  get pending(): number { return 0; }

  set(label: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) throw new RangeError(`expected ${this.dimensions} dimensions, got ${vector.length}`);
    let norm = 0;
    for (let i = 0; i < vector.length; i++) {
      if (!Number.isFinite(vector[i])) throw new RangeError('vector components must be finite');
      norm += vector[i] * vector[i];
    }
    if (norm === 0) throw new RangeError('a zero vector has no direction');
    const unit = new Float32Array(this.dimensions);
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) unit[i] = vector[i] * scale;
    this.vectors.set(label, unit);
  }

  delete(label: number): void { this.vectors.delete(label); }
  has(label: number): boolean { return this.vectors.has(label); }

  relabel(newLabels: Int32Array): void {
    const moved = [...this.vectors].map(([label, v]) => [newLabels[label] ?? -1, v] as const);
    this.vectors.clear();
    for (const [label, v] of moved) if (label >= 0) this.vectors.set(label, v);
  }

  linkSome(_budgetMs: number): number { return 0; }

  nearest(query: ArrayLike<number>, k: number, allowed?: Uint32Array): NearestVectors {
    let norm = 0;
    for (let i = 0; i < query.length; i++) norm += query[i] * query[i];
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const scored: Array<[number, number]> = [];
    for (const [label, v] of this.vectors) {
      if (allowed && (allowed[label >>> 5] & (1 << (label & 31))) === 0) continue;
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
      scored.push([label, dot * scale]);
    }
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const top = scored.slice(0, k);
    return { labels: Int32Array.from(top, (s) => s[0]), similarities: Float32Array.from(top, (s) => s[1]) };
  }

  get memoryBytes(): number { return this.vectors.size * this.dimensions * 4; }

  async exportSnapshot(_pause: () => Promise<void>): Promise<Uint8Array[]> {
    const out = new Float32Array(2 + this.vectors.size * (this.dimensions + 1));
    out[0] = this.dimensions; out[1] = this.vectors.size;
    let at = 2;
    for (const [label, v] of this.vectors) { out[at++] = label; out.set(v, at); at += v.length; }
    return [new Uint8Array(out.buffer)];
  }

  static async importSnapshot(parts: Uint8Array[], _pause: () => Promise<void>): Promise<VectorSpace> {
    const bytes = parts[0];
    const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const space = new VectorSpace(data[0]);
    let at = 2;
    for (let i = 0; i < data[1]; i++) { space.vectors.set(data[at], data.slice(at + 1, at + 1 + space.dimensions)); at += 1 + space.dimensions; }
    return space;
  }
}
