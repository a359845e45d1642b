// The follow endpoints (Lantern's own, under /1/lantern/follow/: see
// src/follow/): the image a follower starts from, and the log it tails
// after it. Both hold only what the caller's key lets a follower receive
// (src/follow/scope.ts).
import type { Engine } from '../engine/engine.js';
import { followerImage } from '../follow/scope.js';
import { FollowFeed, type FeedSource } from '../follow/feed.js';
import { ApiError, badRequest } from '../util/errors.js';
import { Reply, type OperationContext } from './types.js';

/** The response header of a snapshot naming the last task it holds (the log is followed after it). */
export const TASK_HEADER = 'x-lantern-task-id';

type Uses = Pick<Engine, 'image'> & FeedSource;

/**
 * The feed followers tail, attached when the first follower asks: an
 * engine nobody follows keeps no writes for them. A follower starts from a
 * snapshot taken after this, so the feed holds every write after it.
 */
function feedOf({ services, engine }: OperationContext<never, Uses>): FollowFeed {
  if (services.followBacklog <= 0) throw new ApiError('unavailable', 'This engine serves no followers (it was opened with followBacklog: 0)');
  return (services.follow ??= FollowFeed.attach(engine, services.followBacklog));
}

/** GET /1/lantern/follow/snapshot: the indexes the key reaches, as a snapshot's bytes. */
export async function followSnapshot(ctx: OperationContext<never, Uses>): Promise<Reply> {
  const { engine, caller } = ctx;
  feedOf(ctx);
  const image = await engine.image((state) => followerImage(state, caller));
  return new Reply(200, image.bytes, { 'content-type': 'application/octet-stream', [TASK_HEADER]: String(image.lastTaskID) });
}

/** GET /1/lantern/follow/log?after=N (or `Last-Event-ID: N`): server-sent events from task N on. */
export function followLog(ctx: OperationContext<never, Uses>): Reply {
  const { caller, query, headers } = ctx;
  const feed = feedOf(ctx);
  const after = taskIDOf(headers['last-event-id'] ?? query.after ?? '0');
  const events = feed.stream(caller, after);
  return new Reply(200, events, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
}

function taskIDOf(text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw badRequest(`after must be a taskID (a whole number), not ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}
