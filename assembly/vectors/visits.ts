// Nodes a graph search has reached, as a u16 stamp per node: a search takes
// the next stamp instead of clearing a bitmap, and every 65,535 searches the
// stamps are cleared once.
import { grownCapacity } from '../buffers';

let marks: usize = 0;
let capacity = 0;
let stamp: u16 = 0;

/** Starts a search over `nodes` nodes: none reached yet. */
export function beginVisits(nodes: i32): void {
  if (nodes > capacity) {
    const next = grownCapacity(capacity, nodes, 1024);
    marks = marks == 0 ? heap.alloc(<usize>next << 1) : heap.realloc(marks, <usize>next << 1);
    memory.fill(marks + (<usize>capacity << 1), 0, <usize>(next - capacity) << 1);
    capacity = next;
  }
  stamp++;
  if (stamp == 0) {
    memory.fill(marks, 0, <usize>capacity << 1);
    stamp = 1;
  }
}

/** Marks `node` reached; false when it already was. */
@inline export function visit(node: i32): bool {
  const at = marks + (<usize>node << 1);
  if (load<u16>(at) == stamp) return false;
  store<u16>(at, stamp);
  return true;
}
