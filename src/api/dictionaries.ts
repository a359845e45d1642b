// The dictionaries API (/1/dictionaries): entries of the stop words, plurals
// and compounds dictionaries added and deleted in batches, searched, the
// standard entries turned off per language, the languages listed. Changes
// are logged like key changes and applied at once: the taskID answered is
// published when the call returns (getAppTask, waitForAppTask).
import { checkBatch, checkDictionaryName, checkSearch, checkSettings } from '../dictionaries/validate.js';
import { dictionaryLanguages, searchEntries } from '../dictionaries/search.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the dictionaries, and the immediate write path. */
type Uses = Pick<Engine, 'dictionaries' | 'writeKey'>;

export async function batchDictionaryEntries(ctx: OperationContext<'dictionaryName', Uses>) {
  const dictionary = checkDictionaryName(ctx.params.dictionaryName);
  const { clear, changes } = checkBatch(dictionary, ctx.body);
  const taskID = await ctx.engine.writeKey({ type: 'dictionaries', action: 'batch', dictionary, clear, changes });
  return { taskID, updatedAt: new Date().toISOString() };
}

export function searchDictionaryEntries(ctx: OperationContext<'dictionaryName', Uses>) {
  const dictionary = checkDictionaryName(ctx.params.dictionaryName);
  const search = checkSearch(ctx.body);
  const { dictionaries } = ctx.engine;
  return searchEntries(dictionary, dictionaries.customEntries(dictionary), dictionaries.disableStandardEntries, search);
}

export function getDictionarySettings(ctx: OperationContext<never, Uses>) {
  return { disableStandardEntries: ctx.engine.dictionaries.settings };
}

export async function setDictionarySettings(ctx: OperationContext<never, Uses>) {
  const disableStandardEntries = checkSettings(ctx.body);
  const taskID = await ctx.engine.writeKey({ type: 'dictionaries', action: 'settings', disableStandardEntries });
  return { taskID, updatedAt: new Date().toISOString() };
}

export function getDictionaryLanguages(ctx: OperationContext<never, Uses>) {
  return dictionaryLanguages(ctx.engine.dictionaries.entries);
}
