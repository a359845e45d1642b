// The recommend models on their way to followers. A follower learns
// nothing (it receives no events): its server sends it each index's models
// as they stand, along its log, with the settings they were learnt with.
// The models are state, not tasks: a follower needs the latest of each
// index, not every step. So the feed keeps a version per index, bumped
// when the server's models of that index learnt something (they take in
// new events once per `freshnessMs`), and each follower's stream, once it
// has every kept operation, sends the indexes its key reaches whose
// version it has not sent yet — all of them on a new connection (a
// follower reconnecting may have missed any). An index's models are
// written as JSON once per version, for every follower; large models are
// sent less often (WRITE_SHARE), so that writing them never takes more
// than a small share of the server's time.
import type { Caller } from '../auth/caller.js';
import { mayReach } from '../auth/restrictions.js';
import type { RecommendState } from '../recommend/state.js';
import { modelsEvent } from './events.js';

/**
 * A new version of an index's models waits until this many times the
 * milliseconds its last one took to write have passed since (26 MB of JSON
 * written in 0.38 s at a million events: a version every 38 s; small
 * models, within the server's freshness).
 */
const WRITE_SHARE = 100;

/** The versions of each index's models a follower's stream has sent. */
export type SentModels = Map<string, number>;

interface Latest {
  version: number;
  /** The models of this version as JSON, once written. */
  text?: string;
  /** When the last version's JSON was written, and how long it took. */
  writtenAt: number;
  writeMs: number;
  /** A newer version waiting for its turn. */
  waiting?: ReturnType<typeof setTimeout>;
}

export class ModelsFeed {
  private readonly latest = new Map<string, Latest>();
  private readonly detach: () => void;

  /** Follows `recommend`'s models; `changed` wakes the streams waiting for something new. */
  constructor(private readonly recommend: RecommendState, private readonly changed: () => void) {
    for (const index of recommend.indexesLearnt()) this.latest.set(index, { version: 1, writtenAt: 0, writeMs: 0 });
    this.detach = recommend.onLearnt((indexes) => { for (const index of indexes) this.learnt(index); });
  }

  /** The models of `index` learnt something: a new version now, or once large models' turn comes. */
  private learnt(index: string): void {
    const latest = this.latest.get(index) ?? { version: 0, writtenAt: 0, writeMs: 0 };
    this.latest.set(index, latest);
    if (latest.waiting) return;
    const wait = latest.writtenAt + latest.writeMs * WRITE_SHARE - Date.now();
    if (wait <= 0) return this.newVersion(latest);
    latest.waiting = setTimeout(() => this.newVersion(latest), wait);
    (latest.waiting as { unref?: () => void }).unref?.();
  }

  private newVersion(latest: Latest): void {
    latest.waiting = undefined;
    latest.version++;
    latest.text = undefined;
    this.changed();
  }

  /** The models events `caller`'s follower has not received (`sent` is updated); '' when it has them all. */
  unsent(caller: Caller, sent: SentModels): string {
    let text = '';
    for (const [index, latest] of this.latest) {
      if (sent.get(index) === latest.version || !mayReach(caller, index)) continue;
      sent.set(index, latest.version);
      text += modelsEvent(index, this.textOf(index, latest), this.recommend.settings);
    }
    return text;
  }

  private textOf(index: string, latest: Latest): string {
    if (latest.text === undefined) {
      const start = performance.now();
      latest.text = JSON.stringify(this.recommend.modelsOf(index)?.snapshot() ?? null);
      latest.writtenAt = Date.now();
      latest.writeMs = performance.now() - start;
    }
    return latest.text;
  }

  close(): void {
    this.detach();
    for (const latest of this.latest.values()) clearTimeout(latest.waiting);
  }
}
