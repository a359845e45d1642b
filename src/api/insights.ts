// The insights endpoints: pushing events (all valid or none stored) and
// forgetting a user's events.
import { badRequest } from '../util/errors.js';
import { checkIndex } from '../auth/restrictions.js';
import { parseEvents } from '../insights/validate.js';
import { Reply, type OperationContext } from './types.js';
import type { Engine } from '../engine/engine.js';

/** What these handlers use of the engine: the analytics state (events are recorded there). */
type Uses = Pick<Engine, 'analytics'>;

export async function pushEvents(ctx: OperationContext<never, Uses>) {
  const events = parseEvents(ctx.body);
  for (const e of events) checkIndex(ctx.caller, e.index);
  if (events.length > 0) await ctx.engine.analytics.write({ type: 'analytics', action: 'events', searches: [], events });
  return { status: 200, message: 'OK' };
}

export async function deleteUserToken(ctx: OperationContext<'userToken', Uses>) {
  const { userToken } = ctx.params;
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(userToken)) throw badRequest('userToken must match [a-zA-Z0-9_-]{1,64}');
  await ctx.engine.analytics.write({ type: 'analytics', action: 'forgetUser', userToken, until: Date.now() });
  return new Reply(204, '', { 'content-type': 'text/plain' }); // the spec's answer: no content
}
