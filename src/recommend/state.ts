// The recommend section of the engine's state: the recommend rules of each
// index and model (logged as `recommend` operations through the engine's
// immediate-write path, idempotent like key changes), and the models
// learnt from the analytics section's insight events.
//
// The models follow the event store: `consumed` events of it are learnt,
// and once per `freshnessMs` after new ones are applied the rest is learnt
// in slices that yield to searches. Once a day (the window moves) and after
// a user's events are forgotten, the models are trained anew from the whole
// store in the background, the old ones answering meanwhile. Each time an
// index's models learnt something, `onLearnt` listeners hear of it (the
// follow feed sends them on).
//
// Snapshots: a stored snapshot holds the rules only, the models are trained
// again from the stored events at load, at once (as fast as loading them
// would be, and nothing twice on disk: bench/recommend.mjs). An image for a
// replica carries the trained models too, once there are any: until the
// first training an image says nothing of models, so that a follower of a
// server just restarted keeps answering with the models it has. A follower receives no events
// (src/follow/scope.ts): it learns nothing, and answers with the models
// and settings (the minimums) its server sends along its log (`receive`),
// which its stored snapshots keep.
import type { EventStore } from '../analytics/events.js';
import type { SnapshotUse, StateSection } from '../durability/state-section.js';
import { IndexModels, type IndexModelsSnapshot } from './index-models.js';
import { dayOf, recommendSettings, type RecommendOptions, type RecommendSettings } from './options.js';
import type { RecommendRule, RuleModel } from './rules.js';
import { learnNew, trainAll } from './training.js';

export type RecommendOperation = { type: 'recommend' } & (
  | { action: 'saveRules'; indexName: string; model: RuleModel; rules: RecommendRule[]; clearExisting: boolean }
  | { action: 'deleteRule'; indexName: string; model: RuleModel; objectID: string }
);

export interface RecommendSnapshot {
  /** [index, model, rules]. */
  rules: Array<[string, RuleModel, RecommendRule[]]>;
  /** Trained models, in images for replicas and a follower's stored snapshots only: [index, models]. */
  models?: Array<[string, IndexModelsSnapshot]>;
  /** The settings the models were learnt with (with `models`): a follower answers with its server's minimums. */
  settings?: RecommendSettings;
}

export interface RecommendPart { recommend?: RecommendSnapshot }

/** A change of rules or events, as the section reads the operations it is given. */
type Applied = { type: string; action?: string; indexName?: string };

/** Told the indexes whose models learnt something (or were dropped). */
export type LearntListener = (indexNames: string[]) => void;

export class RecommendState implements StateSection<RecommendPart, Applied> {
  private learntWith: RecommendSettings;
  /** index → model → objectID → rule */
  private readonly rules = new Map<string, Map<RuleModel, Map<string, RecommendRule>>>();
  private models = new Map<string, IndexModels>();
  /** Events of the store learnt by `models`. */
  private consumed = 0;
  /** The store's count of removed events when `consumed` was last counted (see EventStore.eventsRemoved and followDroppedOldest). */
  private removedSeen = 0;
  /** The day the models were trained (the window moves with it). */
  private trainedDay = -1;
  private mustRetrain = true;
  /** Whether the models reflect the events (or, on a follower, its server's models) at least once since they were reset. */
  private trained = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly listeners = new Set<LearntListener>();

  /**
   * `events`: the analytics section's event store (read, never changed);
   * `learns`: false for a follower, whose models come with its images.
   */
  constructor(private readonly events: () => EventStore, options: RecommendOptions | undefined, private readonly learns: boolean) {
    if (!learns && options !== undefined) throw new TypeError('recommend options are not for a follower: it answers with the models and minimums of the server it follows (set them there)');
    this.learntWith = recommendSettings(options);
  }

  /** The windows and minimums the models are learnt and answered with (a follower's: its server's). */
  get settings(): RecommendSettings { return this.learntWith; }

  /** The indexes with models. */
  indexesLearnt(): string[] { return [...this.models.keys()]; }

  /** Calls `listener` each time models learn; returns what stops it. */
  onLearnt(listener: LearntListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A follower's: the models of an index its server sent (null: it has none now), and the settings they were learnt with. */
  receive(indexName: string, models: IndexModelsSnapshot | null, settings: RecommendSettings): void {
    if (this.learns) throw new Error('recommend models are received by a follower only: this engine learns its own');
    this.learntWith = recommendSettings(settings);
    if (models) this.models.set(indexName, IndexModels.restore(models));
    else this.models.delete(indexName);
    this.trained = true;
  }

  /** The models of an index (undefined: no events for it yet). */
  modelsOf(indexName: string): IndexModels | undefined { return this.models.get(indexName); }

  /** The rules of an index and model, by objectID. */
  rulesOf(indexName: string, model: RuleModel): ReadonlyMap<string, RecommendRule> {
    return this.rules.get(indexName)?.get(model) ?? new Map();
  }

  apply(op: Applied): void {
    if (op.type === 'analytics') {
      if (op.action === 'forgetUser') this.mustRetrain = true;
      if (op.action === 'events' || op.action === 'forgetUser') this.scheduleRefresh();
      return;
    }
    if (op.type !== 'recommend') return;
    const change = op as RecommendOperation;
    const byModel = this.rules.get(change.indexName) ?? new Map<RuleModel, Map<string, RecommendRule>>();
    this.rules.set(change.indexName, byModel);
    const rules = byModel.get(change.model) ?? new Map<string, RecommendRule>();
    byModel.set(change.model, rules);
    if (change.action === 'deleteRule') { rules.delete(change.objectID); return; }
    if (change.clearExisting) rules.clear();
    for (const rule of change.rules) rules.set(rule.objectID, rule);
  }

  /** Learns what the store holds beyond the models, within `freshnessMs` (one timer for any number of events). */
  private scheduleRefresh(): void {
    if (!this.learns || this.timer || this.stopped) return;
    // models not trained since the engine opened answer nothing: train them at once
    const delay = this.trained ? this.settings.freshnessMs : 0;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh().catch((e: Error) => console.error(`lantern: recommend models not updated (${e.message})`));
    }, delay);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * Brings the models up to the store: an increment, or a whole training
   * when the day changed or events were forgotten. One at a time.
   */
  refresh(now = Date.now()): Promise<void> {
    if (!this.learns) return Promise.resolve();
    const previous = this.running ?? Promise.resolve();
    const run = previous.then(() => this.update(now));
    this.running = run.finally(() => { if (this.running === run) this.running = undefined; });
    return run;
  }

  private async update(now: number): Promise<void> {
    const store = this.events();
    const learnt = new Set<string>();
    // a user forgotten (mustRetrain), a new day or a store replaced (fewer removals, too few events): train anew
    const shifted = store.eventsRemoved - this.removedSeen;
    if (this.mustRetrain || dayOf(now) !== this.trainedDay || shifted < 0 || this.consumed - shifted > store.events.length) {
      this.mustRetrain = false;
      this.removedSeen = store.eventsRemoved;
      const upTo = store.events.length;
      const models = await trainAll(store.events.slice(0, upTo), this.settings, now);
      for (const index of [...this.models.keys(), ...models.keys()]) learnt.add(index);
      this.models = models;
      this.consumed = upTo;
      this.trainedDay = dayOf(now);
    }
    this.followDroppedOldest(store);
    // a copy: learning pauses between slices, and the store may drop its oldest meanwhile (counted at the next update)
    const from = this.consumed;
    const newEvents = store.events.slice(from);
    await learnNew(this.models, newEvents, this.settings, now);
    this.consumed = from + newEvents.length;
    for (const e of newEvents) learnt.add(e.index);
    this.trained = true;
    if (learnt.size > 0) for (const listener of this.listeners) listener([...learnt]);
  }

  /**
   * Moves the position learnt from back by the events the store dropped
   * from its start since (past its room or the retention): the models keep
   * what they learnt of them until the day's training, and learn on from
   * the same event. A forget (removals anywhere) waits for its training.
   */
  private followDroppedOldest(store: EventStore): void {
    if (this.mustRetrain) return;
    this.consumed = Math.max(0, this.consumed - (store.eventsRemoved - this.removedSeen));
    this.removedSeen = store.eventsRemoved;
  }

  /** Resolves once the models have learnt every event applied so far (tests, benches, `lantern` tools). */
  async whenFresh(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.refresh();
  }

  /** Stops following events (the engine is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  snapshot(use: SnapshotUse): RecommendPart {
    const rules: RecommendSnapshot['rules'] = [];
    for (const [index, byModel] of this.rules) for (const [model, byID] of byModel) if (byID.size) rules.push([index, model, [...byID.values()]]);
    // a stored snapshot of an engine that learns holds no models: it learns them again at load
    if (use === 'store' && this.learns) return { recommend: { rules } };
    // models not trained yet are not "no models": an image without them leaves a follower's own
    if (!this.trained) return { recommend: { rules, settings: this.settings } };
    return { recommend: { rules, models: [...this.models].map(([index, m]) => [index, m.snapshot()]), settings: this.settings } };
  }

  restore({ recommend }: Partial<RecommendPart>): void {
    const kept = !this.learns && !recommend?.models ? this.models : undefined;
    this.reset();
    if (kept) { this.models = kept; this.trained = true; }
    for (const [index, model, rules] of recommend?.rules ?? []) this.apply({ type: 'recommend', action: 'saveRules', indexName: index, model, rules, clearExisting: true } as RecommendOperation);
    if (recommend?.settings && !this.learns) this.learntWith = recommendSettings(recommend.settings);
    if (recommend?.models) {
      this.models = new Map(recommend.models.map(([index, m]) => [index, IndexModels.restore(m)]));
      this.consumed = this.events().events.length;
      this.removedSeen = this.events().eventsRemoved;
      this.trainedDay = dayOf(Date.now());
      this.mustRetrain = false;
      this.trained = true;
    }
    this.scheduleRefresh();
  }

  reset(): void {
    this.rules.clear();
    this.models = new Map();
    this.consumed = 0;
    this.trainedDay = -1;
    this.mustRetrain = true;
    this.trained = false;
  }
}
