// Write operations as data: what the log stores and what `apply` replays.
// Every object write is a batch of actions on one index, so single-object
// endpoints, batches and multi-index batches share one path.
import { badRequest, shown } from '../util/errors.js';
import { asRecord, checkPartial, isOneOf, isPlainObject, type Json, type SearchRecord } from '../index/records.js';
import type { LOGGED_TEXT } from '../util/logged-text.js';
import type { GivenForms, SettingsChanges } from '../index/params.js';
import type { Scope, SetChanges } from '../index/index-config.js';
import type { Synonym } from '../index/synonyms.js';
import type { Rule } from '../index/rules.js';
import type { ApiKey } from '../auth/api-keys.js';
import type { AnalyticsOperation } from '../analytics/state.js';
import type { DictionaryOperation } from '../dictionaries/entries.js';
import type { RecommendOperation } from '../recommend/state.js';

export type Action =
  /** LOGGED_TEXT: the record's JSON as the log wrote it (a large batch's on the file store). */
  | { action: 'addObject' | 'updateObject'; body: SearchRecord; [LOGGED_TEXT]?: Uint8Array }
  | { action: 'partialUpdateObject' | 'partialUpdateObjectNoCreate'; objectID: string; body: Record<string, Json> }
  | { action: 'deleteObject'; objectID: string }
  | { action: 'delete' | 'clear' };

export type WriteOperation =
  /** `userID`: the multi-cluster user the records are written for. */
  | { type: 'batch'; indexName: string; actions: Action[]; userID?: string }
  /** `given`: the forms getSettings answers where they differ from `settings` (absent in logs written before them). */
  | { type: 'settings'; indexName: string; settings: SettingsChanges; given?: GivenForms; forwardToReplicas?: boolean }
  | ({ type: 'synonyms'; indexName: string; forwardToReplicas?: boolean } & SetChanges<Synonym>)
  | ({ type: 'rules'; indexName: string; forwardToReplicas?: boolean } & SetChanges<Rule>)
  /**
   * `keys`: the index-specific keys that reached the source when the operation
   * was accepted, the ones it extends to the destination (absent in older logs: every key reaching it then).
   */
  | { type: 'operation'; indexName: string; operation: 'copy' | 'move'; destination: string; scope?: Scope[]; keys?: string[] }
  | { type: 'deleteIndex'; indexName: string }
  | { type: 'deleteByQuery'; indexName: string; params: Record<string, unknown> }
  /** Vectors an embedder computed for records' texts (`vector`: see vector-text.ts), logged so that no node computes them again. */
  | { type: 'vectors'; indexName: string; embedder: string; entries: Array<{ objectID: string; hash: string; vector: string }> }
  | KeyOperation
  | AnalyticsOperation
  | DictionaryOperation
  | RecommendOperation;

/** API key changes: idempotent, so replaying one a snapshot already holds is harmless. */
export type KeyOperation =
  | ApiKeyChange
  /** The whole source allow-list after a change (undefined entries: none). */
  | { type: 'key'; action: 'sources'; sources: AllowedSource[] }
  | ClusterOperation;

/** Changes of API keys themselves (held by the shared keys instead of the log, when the engine has them). */
export type ApiKeyChange =
  | { type: 'key'; action: 'put'; key: ApiKey }
  | { type: 'key'; action: 'delete' | 'restore'; value: string };

/** Mapping changes, logged like key changes (idempotent, applied at once). */
export type ClusterOperation =
  | { type: 'key'; action: 'assignUsers'; cluster: string; users: string[]; at: number }
  | { type: 'key'; action: 'removeUser'; userID: string };

export interface AllowedSource { source: string; description?: string }

const ACTIONS = ['addObject', 'updateObject', 'partialUpdateObject', 'partialUpdateObjectNoCreate', 'deleteObject', 'delete', 'clear'] as const;

function objectIDOf(item: Record<string, unknown>, position: number): string {
  const id = item.objectID ?? (isPlainObject(item.body) ? item.body.objectID : undefined);
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw badRequest(`requests[${position}]: action ${item.action} needs an objectID`);
  }
  return String(id);
}

/**
 * The objectID of an action that writes a record under it: never empty, as
 * the service answers 400 for one. deleteObject still takes "" so that a
 * record stored under it before this check can be removed.
 */
function writtenIDOf(item: Record<string, unknown>, position: number): string {
  const id = objectIDOf(item, position);
  if (id === '') throw badRequest(`requests[${position}]: action ${item.action} needs a non-empty objectID`);
  return id;
}

/** Checks one batch item (spec form: objectID beside the body; client form: inside it). */
export function toAction(item: unknown, position: number): Action {
  if (!isPlainObject(item)) throw badRequest(`requests[${position}] must be an object`);
  const { action } = item;
  if (!isOneOf(ACTIONS, action)) throw badRequest(`requests[${position}]: unknown action ${shown(action)}`);
  switch (action) {
    case 'addObject':
      return { action, body: asRecord(item.body, undefined, position) };
    case 'updateObject':
      return { action, body: asRecord(item.body, writtenIDOf(item, position)) };
    case 'partialUpdateObject':
    case 'partialUpdateObjectNoCreate': {
      const objectID = writtenIDOf(item, position);
      checkPartial(item.body, objectID);
      return { action, objectID, body: item.body };
    }
    case 'deleteObject':
      return { action, objectID: objectIDOf(item, position) };
    default:
      return { action };
  }
}

/** objectIDs a batch reports, one per item (none for delete/clear). */
export function reportedIDs(actions: Action[]): string[] {
  // a loop, not flatMap: an array an item cost the cities' import 2.7% of its time
  const ids: string[] = [];
  for (const a of actions) {
    if ('body' in a && a.action !== 'partialUpdateObject' && a.action !== 'partialUpdateObjectNoCreate') ids.push(a.body.objectID as string);
    else if ('objectID' in a) ids.push(a.objectID);
  }
  return ids;
}
