// When a suggestions index is built: each time its configuration is created
// or changed, and on demand (`engine.buildQuerySuggestions(name)`). A build
// runs in the background (searches are answered meanwhile); its records
// replace the index's in one logged batch (a clear and the adds, applied as
// one task), so searches see the old suggestions or the new, never a mix.
// A configuration changed during a build makes it start over; a deleted one
// makes it stop without writing.
import type { Engine } from '../engine/engine.js';
import { parseSettings } from '../index/params.js';
import type { Action } from '../engine/writes.js';
import { buildSuggestions, type Built } from './build.js';
import type { SuggestionsConfig } from './config.js';
import { BuildLog } from './log.js';
import type { BuildOutcome } from './state.js';

/** What building suggestions uses of the engine: its analytics, its indexes, their write path and tasks. */
export type SuggestionsEngine = Pick<Engine, 'analytics' | 'indexes' | 'tasks' | 'write'>;

/** Starts a build of `indexName` unless one is running; resolves when the build under way ends. */
export function scheduleBuild(engine: SuggestionsEngine, indexName: string): Promise<void> {
  const running = engine.analytics.suggestions.running;
  const current = running.get(indexName);
  if (current) return current;
  const build = buildUntilCurrent(engine, indexName).finally(() => running.delete(indexName));
  running.set(indexName, build);
  return build;
}

async function buildUntilCurrent(engine: SuggestionsEngine, indexName: string): Promise<void> {
  const configs = engine.analytics.suggestions.configs;
  let built: SuggestionsConfig | undefined;
  for (let config = configs.get(indexName); config !== undefined && config !== built; config = configs.get(indexName)) {
    const started = Date.now();
    const result = await buildOrLog(engine, config, started);
    if (configs.get(indexName) !== config) continue;
    if (!result.log.failed) await replaceRecords(engine, indexName, result);
    await engine.analytics.write({ type: 'analytics', action: 'suggestionsBuilt', indexName, outcome: outcomeOf(engine, indexName, result.log, started) });
    built = config;
  }
}

async function buildOrLog(engine: SuggestionsEngine, config: SuggestionsConfig, started: number): Promise<Built> {
  try {
    return await buildSuggestions(engine, config, engine.analytics.store, started);
  } catch (e) {
    const log = new BuildLog();
    log.add('ERROR', 0, `build failed: ${(e as Error).message}`);
    return { records: [], settings: {}, log };
  }
}

function sameSettings(current: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return Object.entries(wanted).every(([name, value]) => JSON.stringify(current[name]) === JSON.stringify(value));
}

/** Writes the settings (when they differ) and the records through the engine's write path; resolves once applied. */
async function replaceRecords(engine: SuggestionsEngine, indexName: string, built: Built): Promise<void> {
  const { settings, given } = parseSettings(built.settings);
  const index = engine.indexes.get(indexName);
  if (!index || !sameSettings(index.settings, settings)) await engine.write({ type: 'settings', indexName, settings, given });
  const actions: Action[] = [{ action: 'clear' }, ...built.records.map((body): Action => ({ action: 'addObject', body }))];
  await engine.write({ type: 'batch', indexName, actions });
  await engine.tasks.exclusive(async () => {});
}

function outcomeOf(engine: SuggestionsEngine, indexName: string, log: BuildLog, started: number): BuildOutcome {
  const finished = new Date().toISOString();
  const previous = engine.analytics.suggestions.builds.get(indexName);
  const success = log.failed
    ? { lastSuccessfulBuiltAt: previous?.lastSuccessfulBuiltAt, lastSuccessfulBuildDuration: previous?.lastSuccessfulBuildDuration }
    : { lastSuccessfulBuiltAt: finished, lastSuccessfulBuildDuration: ((Date.now() - started) / 1000).toFixed(3) };
  return { lastBuiltAt: finished, ...success, log: log.lines };
}
