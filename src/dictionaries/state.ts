// The dictionaries section of the engine's state: the custom entries of the
// three dictionaries (by objectID, in the order they were added) and the
// languages whose standard entries are turned off. Changes are logged as
// `dictionaries` operations through the engine's immediate-write path (like
// key changes: each is idempotent, so replaying one a snapshot already holds
// changes nothing) and the whole of it rides in snapshots (`dictionaries`).
// Searches read it compiled (`query`), rebuilt after each change.
import type { StateSection } from '../durability/state-section.js';
import { STANDARD_DICTIONARIES, type QueryDictionaries } from '../text/dictionaries.js';
import {
  DICTIONARY_NAMES, type DictionaryEntry, type DictionaryName, type DictionaryOperation, type StandardEntries,
} from './entries.js';
import { CompiledDictionaries } from './lookup.js';

/** The dictionaries' part of a snapshot. */
export interface DictionariesPart {
  dictionaries: {
    entries: { [D in DictionaryName]?: DictionaryEntry[] };
    disableStandardEntries: StandardEntries;
  };
}

export class DictionariesState implements StateSection<DictionariesPart, { type: string }> {
  /** Custom entries per dictionary, by objectID. */
  readonly entries = new Map<DictionaryName, Map<string, DictionaryEntry>>(DICTIONARY_NAMES.map((d) => [d, new Map()]));
  /** The languages whose standard entries are off, per dictionary. */
  disableStandardEntries: StandardEntries = {};
  private compiled: QueryDictionaries | undefined;

  /** The dictionaries as queries read them (the built-in ones while nothing is customised). */
  get query(): QueryDictionaries {
    if (this.compiled) return this.compiled;
    const customised = [...this.entries.values()].some((m) => m.size > 0)
      || DICTIONARY_NAMES.some((d) => Object.values(this.disableStandardEntries[d] ?? {}).includes(true));
    return (this.compiled = customised ? new CompiledDictionaries(this.entries, this.disableStandardEntries) : STANDARD_DICTIONARIES);
  }

  /** The custom entries of a dictionary, in the order they were added. */
  customEntries(dictionary: DictionaryName): Iterable<DictionaryEntry> {
    return this.entries.get(dictionary)!.values();
  }

  /** Every dictionary's setting: its languages, or null when none is set. */
  get settings(): Required<StandardEntries> {
    const out = {} as Required<StandardEntries>;
    for (const d of DICTIONARY_NAMES) out[d] = this.disableStandardEntries[d] ? { ...this.disableStandardEntries[d] } : null;
    return out;
  }

  apply(logged: { type: string }): void {
    if (logged.type !== 'dictionaries') return;
    const op = logged as DictionaryOperation;
    this.compiled = undefined;
    if (op.action === 'settings') {
      const next: StandardEntries = { ...this.disableStandardEntries };
      for (const d of DICTIONARY_NAMES) {
        const languages = op.disableStandardEntries[d];
        if (languages === null) delete next[d];
        else if (languages !== undefined) next[d] = { ...languages };
      }
      this.disableStandardEntries = next;
      return;
    }
    const entries = this.entries.get(op.dictionary)!;
    if (op.clear) entries.clear();
    for (const change of op.changes) {
      if ('delete' in change) entries.delete(change.delete);
      else entries.set(change.add.objectID, change.add);
    }
  }

  snapshot(): DictionariesPart {
    const entries: { [D in DictionaryName]?: DictionaryEntry[] } = {};
    for (const [d, byID] of this.entries) entries[d] = [...byID.values()];
    return { dictionaries: { entries, disableStandardEntries: this.disableStandardEntries } };
  }

  restore({ dictionaries }: Partial<DictionariesPart>): void {
    this.reset();
    if (!dictionaries) return; // a part an image left out
    for (const d of DICTIONARY_NAMES) {
      const byID = this.entries.get(d)!;
      for (const entry of dictionaries.entries[d] ?? []) byID.set(entry.objectID, entry);
    }
    this.disableStandardEntries = dictionaries.disableStandardEntries;
  }

  reset(): void {
    for (const byID of this.entries.values()) byID.clear();
    this.disableStandardEntries = {};
    this.compiled = undefined;
  }
}
