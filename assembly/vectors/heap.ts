// A binary min-heap of (key f32, node i32) pairs in unmanaged memory: the
// graph search's candidates (key: minus the similarity, the best on top) and
// its results (key: the similarity, the worst on top, to be dropped first).
import { grownCapacity } from '../buffers';

@unmanaged
export class PairHeap {
  ptr: usize = 0;
  length: i32 = 0;
  capacity: i32 = 0;

  @inline keyAt(i: i32): f32 { return load<f32>(this.ptr + (<usize>i << 3)); }
  @inline nodeAt(i: i32): i32 { return load<i32>(this.ptr + (<usize>i << 3) + 4); }
  @inline topKey(): f32 { return this.keyAt(0); }
  @inline topNode(): i32 { return this.nodeAt(0); }

  @inline private put(i: i32, key: f32, node: i32): void {
    store<f32>(this.ptr + (<usize>i << 3), key);
    store<i32>(this.ptr + (<usize>i << 3) + 4, node);
  }

  clear(): void { this.length = 0; }

  push(key: f32, node: i32): void {
    if (this.length == this.capacity) {
      const next = grownCapacity(this.capacity, this.length + 1, 64);
      this.ptr = this.ptr == 0 ? heap.alloc(<usize>next << 3) : heap.realloc(this.ptr, <usize>next << 3);
      this.capacity = next;
    }
    let i = this.length++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const parentKey = this.keyAt(parent);
      if (parentKey <= key) break;
      this.put(i, parentKey, this.nodeAt(parent));
      i = parent;
    }
    this.put(i, key, node);
  }

  /** Removes the top pair (read it first with topKey/topNode). */
  pop(): void {
    const n = --this.length;
    if (n == 0) return;
    const key = this.keyAt(n);
    const node = this.nodeAt(n);
    let i = 0;
    for (;;) {
      let child = (i << 1) + 1;
      if (child >= n) break;
      if (child + 1 < n && this.keyAt(child + 1) < this.keyAt(child)) child++;
      const childKey = this.keyAt(child);
      if (key <= childKey) break;
      this.put(i, childKey, this.nodeAt(child));
      i = child;
    }
    this.put(i, key, node);
  }

  /** Keeps the `size` largest keys: pushes the pair, dropping the smallest when over `size`. */
  @inline offer(key: f32, node: i32, size: i32): void {
    if (this.length < size) this.push(key, node);
    else if (key > this.topKey()) { this.pop(); this.push(key, node); }
  }
}
