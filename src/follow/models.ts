// The recommend models on their way to followers. A follower learns
// nothing (it receives no events): its server sends it each index's models
// as they stand, along its log, with the settings they were learnt with.
// The models are state, not tasks: a follower needs the latest of each
// index, not every step. So the feed keeps a version per index, bumped
// each time the server's models of that index learn something (at most
// once per `freshnessMs`, the interval at which they take in new events),
// and each follower's stream, once it has every kept operation, sends the
// indexes its key reaches whose version it has not sent yet — all of them
// on a new connection (a follower reconnecting may have missed any). An
// index's models are written as JSON once per version, for every follower.
import type { Caller } from '../auth/caller.js';
import { mayReach } from '../auth/restrictions.js';
import type { RecommendState } from '../recommend/state.js';
import { modelsEvent } from './events.js';

/** The versions of each index's models a follower's stream has sent. */
export type SentModels = Map<string, number>;

export class ModelsFeed {
  /** index → the version of its models now, and their JSON once written. */
  private readonly latest = new Map<string, { version: number; text?: string }>();
  private readonly detach: () => void;

  /** Follows `recommend`'s models; `changed` wakes the streams waiting for something new. */
  constructor(private readonly recommend: RecommendState, changed: () => void) {
    for (const index of recommend.indexesLearnt()) this.latest.set(index, { version: 1 });
    this.detach = recommend.onLearnt((indexes) => {
      for (const index of indexes) this.latest.set(index, { version: (this.latest.get(index)?.version ?? 0) + 1 });
      changed();
    });
  }

  /** The models events `caller`'s follower has not received (`sent` is updated); '' when it has them all. */
  unsent(caller: Caller, sent: SentModels): string {
    let text = '';
    for (const [index, latest] of this.latest) {
      if (sent.get(index) === latest.version || !mayReach(caller, index)) continue;
      sent.set(index, latest.version);
      latest.text ??= JSON.stringify(this.recommend.modelsOf(index)?.snapshot() ?? null);
      text += modelsEvent(index, latest.text, this.recommend.settings);
    }
    return text;
  }

  close(): void { this.detach(); }
}
