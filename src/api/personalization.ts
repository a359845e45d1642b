// Personalization: the strategy (the spec's form and today's client's form,
// one stored strategy) and users' computed profiles.
import { badRequest, notFound } from '../util/errors.js';
import { clientForm, parseStrategy, specForm, type Strategy } from '../personalization/strategy.js';
import { profileOf } from '../personalization/profile.js';
import type { OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the analytics state (strategies and profiles), and the indexes profiles read. */
type Uses = Pick<Engine, 'analytics' | 'indexes'>;

async function save(ctx: OperationContext<never, Uses>, strategy: Strategy): Promise<void> {
  ctx.services.strategyTaskID = await ctx.engine.analytics.write({ type: 'analytics', action: 'strategy', strategy });
}

function current(ctx: OperationContext<never, Uses>): Strategy {
  const strategy = ctx.engine.analytics.strategy;
  if (!strategy) throw notFound('No personalization strategy is set');
  return strategy;
}

export async function setPersonalizationStrategy(ctx: OperationContext<never, Uses>) {
  await save(ctx, parseStrategy(ctx.body, true));
  return { message: 'Strategy was successfully updated' };
}

export function getPersonalizationStrategy(ctx: OperationContext<never, Uses>) {
  return clientForm(current(ctx));
}

/** The spec's form: POST /1/recommendation/personalization/strategy → {updatedAt}. */
export async function setRecommendationStrategy(ctx: OperationContext<never, Uses>) {
  const strategy = parseStrategy(ctx.body, false);
  await save(ctx, strategy);
  return { updatedAt: strategy.updatedAt };
}

export function getRecommendationStrategy(ctx: OperationContext<never, Uses>) {
  return { ...specForm(current(ctx)), taskID: ctx.services.strategyTaskID };
}

function userToken(ctx: OperationContext<'userToken', Uses>): string {
  const { userToken } = ctx.params;
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(userToken)) throw badRequest('userToken must match [a-zA-Z0-9_-]{1,64}');
  return userToken;
}

export function getUserTokenProfile(ctx: OperationContext<'userToken', Uses>) {
  const engine = ctx.engine;
  const profile = profileOf(engine.analytics, userToken(ctx), (index, objectID) => engine.indexes.get(index)?.get(objectID));
  if (!profile) throw notFound('No profile for this userToken');
  return profile;
}

export async function deleteUserProfile(ctx: OperationContext<'userToken', Uses>) {
  const token = userToken(ctx);
  const until = Date.now();
  await ctx.engine.analytics.write({ type: 'analytics', action: 'resetProfile', userToken: token, until });
  return { userToken: token, deletedUntil: new Date(until).toISOString() };
}
