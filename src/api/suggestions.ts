// The query suggestions endpoints (admin key): configurations, build status
// and the last build's log. Creating or changing a configuration schedules a
// build of its index (see suggestions/scheduler.ts); deleting one stops the
// updates and leaves the index as it is.
import { ApiError, notFound } from '../util/errors.js';
import { describeConfig, MAX_CONFIGS, parseConfig, type SuggestionsConfig } from '../suggestions/config.js';
import { toJsonLines } from '../suggestions/log.js';
import { scheduleBuild, type SuggestionsEngine } from '../suggestions/scheduler.js';
import { Reply, type OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the analytics state (configurations, build logs), and what a build uses. */
type Uses = Pick<Engine, 'analytics' | 'appId'> & SuggestionsEngine;

const stateOf = (ctx: OperationContext<never, Uses>) => ctx.engine.analytics.suggestions;

function existing(ctx: OperationContext<'indexName', Uses>): SuggestionsConfig {
  const config = stateOf(ctx).configs.get(ctx.params.indexName);
  if (!config) throw notFound(`Configuration not found for index: ${ctx.params.indexName}`);
  return config;
}

async function save(ctx: OperationContext<never, Uses>, config: SuggestionsConfig, verb: 'created' | 'updated') {
  const state = stateOf(ctx);
  if (!state.configs.has(config.indexName) && state.configs.size >= MAX_CONFIGS) {
    throw new ApiError('unprocessable', `At most ${MAX_CONFIGS} configurations per application`);
  }
  await ctx.engine.analytics.write({ type: 'analytics', action: 'putSuggestionsConfig', config });
  scheduleBuild(ctx.engine, config.indexName).catch((e) => console.error(`lantern: building ${config.indexName} failed`, e));
  return { status: 200, message: `Configuration was ${verb}, and a new indexing job has been scheduled.` };
}

/** POST /1/configs (the client's create): the body names the index; an existing configuration is a 422. */
export function createConfig(ctx: OperationContext<never, Uses>) {
  const config = parseConfig(ctx.body);
  if (stateOf(ctx).configs.has(config.indexName)) throw new ApiError('unprocessable', `Configuration already exists for index: ${config.indexName}`);
  return save(ctx, config, 'created');
}

/** PUT /1/configs/{indexName}: creates or updates (the spec's form). */
export function updateConfig(ctx: OperationContext<'indexName', Uses>) {
  const config = parseConfig(ctx.body, ctx.params.indexName);
  return save(ctx, config, stateOf(ctx).configs.has(config.indexName) ? 'updated' : 'created');
}

export function getAllConfigs(ctx: OperationContext<never, Uses>) {
  return [...stateOf(ctx).configs.values()].map((c) => describeConfig(c, ctx.engine.appId));
}

export function getConfig(ctx: OperationContext<'indexName', Uses>) {
  return describeConfig(existing(ctx), ctx.engine.appId);
}

export async function deleteConfig(ctx: OperationContext<'indexName', Uses>) {
  const { indexName } = existing(ctx);
  await ctx.engine.analytics.write({ type: 'analytics', action: 'deleteSuggestionsConfig', indexName });
  return { status: 200, message: 'Configuration was deleted with success.' };
}

export function getConfigStatus(ctx: OperationContext<'indexName', Uses>) {
  return stateOf(ctx).status(existing(ctx).indexName);
}

/**
 * The last build's log in JSON Lines (the spec). A caller that accepts only
 * JSON (the official client, which parses every answer) gets the same lines
 * as a JSON array.
 */
export function getLogFile(ctx: OperationContext<'indexName', Uses>) {
  const build = stateOf(ctx).builds.get(ctx.params.indexName);
  if (!build) throw notFound(`No build log for index: ${ctx.params.indexName}`);
  // as JSON (the official clients), the spec's one log entry: the last, which says how the build ended
  if (/^application\/json\b/.test(ctx.headers.accept ?? '')) return build.log.at(-1);
  return new Reply(200, toJsonLines(build.log), { 'content-type': 'application/x-ndjson; charset=UTF-8' });
}
