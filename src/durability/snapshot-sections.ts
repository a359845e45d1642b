// How a snapshot's state is cut into sections of at most a few megabytes,
// and put back together. Section 0 holds the state's skeleton: the state
// with each large byte array (a core's parts, a chunk of packed records) and
// each long list (the objectIDs of a million records) replaced by a
// reference to the sections that hold it. A byte array is one section; a
// list is sections of LIST_ITEMS items. Encoding and decoding go a section
// at a time, so nothing here holds the main thread for longer than one
// section's work, whatever the size of the store; sealing and checksums are
// the codec's (persistence.ts).
import { ExtensionCodec, encode } from '@msgpack/msgpack';
import { decode } from '../util/msgpack.js';
import { setOwn } from '../util/own-keys.js';

/** Byte arrays at least this long get a section of their own (smaller ones stay in their parent's). */
const OWN_SECTION_BYTES = 1 << 16;
/** Lists longer than this are written in sections of at most this many items... */
const LIST_ITEMS = 4096;
/** ...and at most about this many bytes of the byte arrays they hold (thousands of packed record chunks). */
const LIST_BYTES = 1 << 20;

const BYTES = 0;
const LIST = 1;

/** Where a byte array or a list was put: `count` sections from `first`, `length` bytes or items in all. */
class SectionRef {
  constructor(readonly kind: number, readonly first: number, readonly count: number, readonly length: number) {}
}

/** MessagePack extension 1: a SectionRef, four u32. */
const refs = new ExtensionCodec();
refs.register({
  type: 1,
  encode(value: unknown) {
    if (!(value instanceof SectionRef)) return null;
    const out = new Uint8Array(16);
    const view = new DataView(out.buffer);
    [value.kind, value.first, value.count, value.length].forEach((n, i) => view.setUint32(i * 4, n, true));
    return out;
  },
  decode(data: Uint8Array) {
    if (data.length !== 16) throw new Error('snapshot: a section reference of the wrong size');
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    return new SectionRef(view.getUint32(0, true), view.getUint32(4, true), view.getUint32(8, true), view.getUint32(12, true));
  },
});

/** What a section holds before encoding: bytes as they are, or items [start, end) of a list (sliced when taken). */
type Section = { bytes: Uint8Array } | { list: unknown[]; start: number; end: number };

/** The state cut into sections: section 0 (the skeleton) first. */
export interface CutState {
  count: number;
  /** The payload of section `i` (encoded when asked for: one section's work); the section is let go. */
  take(i: number): Uint8Array;
}

/** Items looked at between two pauses while cutting (a million objectIDs are walked at each snapshot). */
const WALK_ITEMS = 1 << 15;
/** Items of a list of objects or arrays (the records' chunks, synonyms, rules) cut between two pauses. */
const CONTAINERS_PER_PAUSE = 1 << 11;

/**
 * Cuts `state` into sections: a walk over its structure that pauses every
 * WALK_ITEMS items of a long list; nothing is copied or encoded until a
 * section is taken. The state must not change until every section is taken
 * (a snapshot's capture is a copy of its own).
 */
export async function cut(state: unknown, pause: () => Promise<void>): Promise<CutState> {
  const sections: Array<Section | undefined> = [];
  const value = await replaceLarge(state, sections as Section[], pause);
  const count = sections.length + 1;
  return {
    count,
    take(i) {
      if (i === 0) return encode({ sections: count, value }, { extensionCodec: refs });
      const section = sections[i - 1];
      if (!section) throw new Error(`snapshot: section ${i} was already taken`);
      sections[i - 1] = undefined;
      if ('bytes' in section) return section.bytes;
      return encode(section.list.slice(section.start, section.end), { extensionCodec: refs });
    },
  };
}

async function replaceLarge(value: unknown, sections: Section[], pause: () => Promise<void>): Promise<unknown> {
  if (value instanceof Uint8Array) return sectionOrBytes(value, sections);
  if (Array.isArray(value)) {
    const containers = await holdsContainers(value, pause);
    const items = containers ? [] : value;
    if (containers) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        items.push(item instanceof Uint8Array ? sectionOrBytes(item, sections) : await replaceLarge(item, sections, pause));
        if (i % CONTAINERS_PER_PAUSE === CONTAINERS_PER_PAUSE - 1) await pause();
      }
    }
    if (items.length <= LIST_ITEMS) return items;
    const first = sections.length + 1;
    for (const [start, end] of containers ? listSlices(items) : evenSlices(items.length)) sections.push({ list: items, start, end });
    return new SectionRef(LIST, first, sections.length + 1 - first, items.length);
  }
  if (isPlainObject(value)) {
    const out = {};
    for (const [key, item] of Object.entries(value)) setOwn(out, key, await replaceLarge(item, sections, pause));
    return out;
  }
  return value;
}

/** A large byte array's section reference (the array gets a section), or a small one as it is. */
function sectionOrBytes(bytes: Uint8Array, sections: Section[]): Uint8Array | SectionRef {
  if (bytes.length < OWN_SECTION_BYTES) return bytes;
  sections.push({ bytes });
  return new SectionRef(BYTES, sections.length, 1, bytes.length);
}

/** The bounds of slices of LIST_ITEMS items (a list of strings and numbers: nothing to weigh). */
function* evenSlices(length: number): Iterable<[number, number]> {
  for (let start = 0; start < length; start += LIST_ITEMS) yield [start, Math.min(length, start + LIST_ITEMS)];
}

/** The bounds of a long list's slices: at most LIST_ITEMS items and about LIST_BYTES bytes of byte arrays each. */
function* listSlices(items: unknown[]): Iterable<[number, number]> {
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item instanceof Uint8Array) bytes += item.length;
    if (i + 1 - start === LIST_ITEMS || bytes >= LIST_BYTES) {
      yield [start, i + 1];
      start = i + 1;
      bytes = 0;
    }
  }
  if (start < items.length) yield [start, items.length];
}

const isContainer = (value: unknown) => typeof value === 'object' && value !== null;

/** Whether a list holds objects or arrays (a plain loop, paused every WALK_ITEMS items). */
async function holdsContainers(list: unknown[], pause: () => Promise<void>): Promise<boolean> {
  for (let from = 0; from < list.length; from += WALK_ITEMS) {
    if (from > 0) await pause();
    if (containerIn(list, from, Math.min(list.length, from + WALK_ITEMS))) return true;
  }
  return false;
}

function containerIn(list: unknown[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const item = list[i];
    if (typeof item === 'object' && item !== null) return true;
  }
  return false;
}

function isPlainObject(value: unknown): value is object {
  if (!isContainer(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Puts a state back together from its sections: `section(i)` gives the
 * payload of section i (checked), `pause` runs between sections.
 */
export async function join(count: number, section: (i: number) => Promise<Uint8Array>, pause: () => Promise<void>): Promise<unknown> {
  const skeleton = decode(await section(0), { extensionCodec: refs }) as { sections?: unknown; value?: unknown };
  if (skeleton?.sections !== count) throw new Error(`snapshot: ${count} sections where its first says ${String(skeleton?.sections)}`);
  const resolve = async (value: unknown): Promise<unknown> => {
    if (value instanceof SectionRef) return resolve(await referenced(value, count, section, pause));
    if (Array.isArray(value)) {
      if (!(await holdsContainers(value, pause))) return value;
      for (let i = 0; i < value.length; i++) value[i] = await resolve(value[i]);
      return value;
    }
    if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) setOwn(value, key, await resolve(item));
    }
    return value;
  };
  return resolve(skeleton.value);
}

async function referenced(ref: SectionRef, count: number, section: (i: number) => Promise<Uint8Array>, pause: () => Promise<void>): Promise<unknown> {
  if (ref.first < 1 || ref.count < 1 || ref.first + ref.count > count) throw new Error('snapshot: a reference to sections it does not have');
  if (ref.kind === BYTES) {
    const bytes = await section(ref.first);
    if (bytes.length !== ref.length) throw new Error('snapshot: a byte section of the wrong length');
    return bytes;
  }
  if (ref.kind !== LIST) throw new Error('snapshot: a reference of an unknown kind');
  const items: unknown[] = [];
  for (let i = ref.first; i < ref.first + ref.count; i++) {
    const slice = decode(await section(i), { extensionCodec: refs });
    if (!Array.isArray(slice)) throw new Error('snapshot: a list section that is not a list');
    for (const item of slice) items.push(item);
    await pause();
  }
  if (items.length !== ref.length) throw new Error('snapshot: a list of the wrong length');
  return items;
}
