// Index configuration across indexes: replicas (standard and virtual(),
// kept in sync with every write to their primary, reading its data where
// their settings allow), settings/synonyms/rules forwarded to replicas, and
// copy/move.
import { indexAlike, SearchIndex } from './search-index.js';
import type { Settings } from './settings.js';
import type { GivenForms, SettingsChanges, SettingsWrite } from './params.js';
import type { Synonym } from './synonyms.js';
import type { Rule } from './rules.js';

export type Indexes = Map<string, SearchIndex>;

const VIRTUAL = /^virtual\((.+)\)$/;

/** The index name of a `replicas` entry (`virtual(name)` → name). */
export function replicaName(entry: string): string {
  return VIRTUAL.exec(entry)?.[1] ?? entry;
}

/** Replica names of an index's `replicas` setting. */
export function replicaNames(index: SearchIndex): string[] {
  return (index.settings.replicas ?? []).map(replicaName);
}

export function isVirtualReplica(primary: SearchIndex, name: string): boolean {
  return (primary.settings.replicas ?? []).includes(`virtual(${name})`);
}

/** The index and, when forwarding, its replicas. */
export function withReplicas(indexes: Indexes, name: string, forward: boolean): SearchIndex[] {
  const index = indexes.get(name);
  if (!index) return [];
  if (!forward) return [index];
  return [index, ...replicaNames(index).map((r) => indexes.get(r)).filter((r): r is SearchIndex => r?.primary === name)];
}

/** Settings (or changes, or given forms) without their `replicas`: what a replica takes from its primary. */
function withoutReplicas<T extends SettingsChanges | GivenForms>(settings: T): T {
  const { replicas: _, ...rest } = settings;
  return rest as T;
}

/**
 * Whether `replica` reads `primary`'s data rather than holding a copy: a
 * virtual one always; a standard one while its settings shape data as its
 * primary's do (a copy would be the same data indexed again at every write
 * to the primary: with a dozen sort replicas, most of a write's cost).
 */
function readsPrimaryData(replica: SearchIndex, primary: SearchIndex): boolean {
  return isVirtualReplica(primary, replica.name) || replica.indexesAs(primary);
}

/**
 * A replica joining, or after a settings change of it or its primary: it
 * reads the primary's data (see readsPrimaryData), or holds a copy of the
 * primary's records indexed by its own settings. Its own settings stay.
 */
function link(replica: SearchIndex, primary: SearchIndex, joining: boolean): void {
  replica.primary = primary.name;
  if (readsPrimaryData(replica, primary)) {
    replica.shareDataOf(primary, isVirtualReplica(primary, replica.name));
  } else if (replica.sharesData) {
    replica.stopSharing();
  } else if (joining) {
    replica.clear();
    replica.save([...primary.allRecords()]);
  }
}

/**
 * The standard replicas that read their primary's data now and will not
 * once the settings `targets` get apply (the index's own, its replicas',
 * or its primary's changed alone), each with its settings then: they build
 * their own copy before the change (see SearchIndex.prepareOwnCopy).
 */
export function replicasLeaving(indexes: Indexes, name: string, targets: Array<[SearchIndex, SettingsChanges]>): Array<[SearchIndex, Settings]> {
  const index = indexes.get(name);
  if (!index) return [];
  const after = new Map(targets.map(([target, changes]) => [target, target.settingsAfter(changes)]));
  const settingsOf = (target: SearchIndex) => after.get(target) ?? target.settings;
  const pairs = withReplicas(indexes, name, true).slice(1).map((replica): [SearchIndex, SearchIndex] => [replica, index]);
  const primary = index.primary ? indexes.get(index.primary) : undefined;
  if (primary) pairs.push([index, primary]);
  return pairs
    .filter(([replica, of]) => replica.sharesData && !replica.isVirtual && !indexAlike(settingsOf(replica), settingsOf(of)))
    .map(([replica]) => [replica, settingsOf(replica)]);
}

/** A replica leaving its primary becomes a standalone index with the records it had. */
export function detach(replica: SearchIndex): void {
  replica.primary = undefined;
  replica.stopSharing();
}

/** After a restore from snapshots: replicas that read their primary's data read it again. */
export function linkReplicas(indexes: Indexes): void {
  for (const index of indexes.values()) {
    const primary = index.primary ? indexes.get(index.primary) : undefined;
    if (primary) link(index, primary, false);
  }
}

/** The indexes a settings change reaches, each with the changes it gets. */
export function settingsTargets(indexes: Indexes, name: string, settings: SettingsChanges, forward: boolean): Array<[SearchIndex, SettingsChanges]> {
  const [index, ...replicas] = withReplicas(indexes, name, forward);
  if (!index) return [];
  return [[index, settings], ...replicas.map((r): [SearchIndex, SettingsChanges] => [r, withoutReplicas(settings)])];
}

export function applySettings(indexes: Indexes, ensure: (name: string) => SearchIndex, name: string, write: SettingsWrite, forward: boolean): void {
  const { settings, given } = write;
  const index = ensure(name);
  const before = new Set(replicaNames(index));
  index.setSettings(settings, given);
  if ('replicas' in settings) {
    const after = replicaNames(index);
    for (const gone of before) {
      const replica = indexes.get(gone);
      if (!after.includes(gone) && replica?.primary === name) detach(replica);
    }
    for (const added of after) {
      // a new replica starts with the primary's settings; an existing one keeps its own
      const existed = indexes.has(added);
      const replica = ensure(added);
      if (!existed) replica.setSettings(withoutReplicas(index.settings), withoutReplicas(index.givenForms));
      if (replica.primary !== name) link(replica, index, true);
    }
  }
  for (const [replica, changes] of settingsTargets(indexes, name, settings, forward).slice(1)) replica.setSettings(changes, withoutReplicas(given));
  // whether each replica of the index, or the index as a replica, reads its primary's data may have changed
  for (const replica of withReplicas(indexes, name, true).slice(1)) link(replica, index, false);
  const primary = index.primary ? indexes.get(index.primary) : undefined;
  if (primary) link(index, primary, false);
}

export interface SetChanges<T> { save?: T[]; remove?: string[]; clear?: boolean }

function applyChanges<T extends { objectID: string }>(target: Map<string, T>, changes: SetChanges<T>): void {
  if (changes.clear) target.clear();
  for (const id of changes.remove ?? []) target.delete(id);
  for (const item of changes.save ?? []) target.set(item.objectID, item);
}

export function applySynonymChanges(indexes: Indexes, name: string, changes: SetChanges<Synonym>, forward: boolean): void {
  for (const index of withReplicas(indexes, name, forward)) applyChanges(index.synonyms, changes);
}

export function applyRuleChanges(indexes: Indexes, name: string, changes: SetChanges<Rule>, forward: boolean): void {
  for (const index of withReplicas(indexes, name, forward)) applyChanges(index.rules, changes);
}

export type Scope = 'settings' | 'synonyms' | 'rules';

/** copy (whole, or the scopes given) or move an index; the destination keeps its own replicas. */
export function applyOperation(
  indexes: Indexes, ensure: (name: string) => SearchIndex, create: (name: string) => SearchIndex, source: string, destination: string, operation: 'copy' | 'move', scope?: Scope[]): void {
  const from = indexes.get(source);
  if (!from || source === destination) return;
  const existing = indexes.get(destination);
  const keepReplicas = existing?.settings.replicas;
  const keepGivenReplicas = existing?.givenForms.replicas;
  let to: SearchIndex;
  if (operation === 'copy' && scope?.length) {
    to = ensure(destination);
  } else {
    to = create(destination);
    to.primary = existing?.primary;
    indexes.set(destination, to);
  }
  const parts: Scope[] = operation === 'copy' && scope?.length ? scope : ['settings', 'synonyms', 'rules'];
  if (parts.includes('settings')) {
    const reset = Object.fromEntries(Object.keys(to.settings).map((k) => [k, null]));
    to.setSettings(
      { ...reset, ...withoutReplicas(from.settings), ...(keepReplicas ? { replicas: keepReplicas } : {}) },
      { ...withoutReplicas(from.givenForms), ...(keepReplicas && keepGivenReplicas !== undefined ? { replicas: keepGivenReplicas } : {}) },
    );
  }
  if (parts.includes('synonyms')) applyChanges(to.synonyms, { clear: true, save: [...from.synonyms.values()] });
  if (parts.includes('rules')) applyChanges(to.rules, { clear: true, save: [...from.rules.values()] });
  if (!(operation === 'copy' && scope?.length)) {
    to.save([...from.allRecords()]);
    for (const replica of withReplicas(indexes, destination, true).slice(1)) link(replica, to, true);
  }
  if (operation === 'move') {
    for (const replica of withReplicas(indexes, source, true).slice(1)) detach(replica);
    indexes.delete(source);
  }
}
