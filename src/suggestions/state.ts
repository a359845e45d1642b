// What the query suggestions service keeps: the configurations and, per
// suggestions index, the outcome of its last build (times and log). Both are
// changed through analytics operations (logged, idempotent, in snapshots);
// whether a build is running is known only to this process.
import type { SuggestionsConfig } from './config.js';
import type { LogLine } from './log.js';

export interface BuildOutcome {
  lastBuiltAt: string;
  lastSuccessfulBuiltAt?: string;
  /** Seconds, as a decimal string (the service's form). */
  lastSuccessfulBuildDuration?: string;
  log: LogLine[];
}

export type SuggestionsOperation = { type: 'analytics' } & (
  | { action: 'putSuggestionsConfig'; config: SuggestionsConfig }
  | { action: 'deleteSuggestionsConfig'; indexName: string }
  | { action: 'suggestionsBuilt'; indexName: string; outcome: BuildOutcome }
);

export interface SuggestionsSnapshot {
  configs: SuggestionsConfig[];
  builds: Array<[string, BuildOutcome]>;
}

/** Where the builds of a query suggestions index stand (the service's `getConfigStatus`). */
export interface SuggestionsBuildStatus {
  /** The suggestions index the configuration builds. */
  indexName: string;
  /** A build is under way. */
  isRunning: boolean;
  /** When the last build ended (ISO 8601), successful or not; null before the first. */
  lastBuiltAt: string | null;
  /** When the last successful build ended (ISO 8601); null before the first. */
  lastSuccessfulBuiltAt: string | null;
  /** How long the last successful build took, in seconds as text (`'1.234'`); null before the first. */
  lastSuccessfulBuildDuration: string | null;
}

export class SuggestionsState {
  readonly configs = new Map<string, SuggestionsConfig>();
  readonly builds = new Map<string, BuildOutcome>();
  /** Builds under way in this process, by suggestions index. */
  readonly running = new Map<string, Promise<void>>();

  apply(op: SuggestionsOperation): void {
    switch (op.action) {
      case 'putSuggestionsConfig': this.configs.set(op.config.indexName, op.config); return;
      case 'deleteSuggestionsConfig': this.configs.delete(op.indexName); return;
      case 'suggestionsBuilt': this.builds.set(op.indexName, op.outcome); return;
    }
  }

  status(indexName: string): SuggestionsBuildStatus {
    const build = this.builds.get(indexName);
    return {
      indexName,
      isRunning: this.running.has(indexName),
      lastBuiltAt: build?.lastBuiltAt ?? null,
      lastSuccessfulBuiltAt: build?.lastSuccessfulBuiltAt ?? null,
      lastSuccessfulBuildDuration: build?.lastSuccessfulBuildDuration ?? null,
    };
  }

  snapshot(): SuggestionsSnapshot {
    return { configs: [...this.configs.values()], builds: [...this.builds] };
  }

  restore(snapshot: SuggestionsSnapshot): void {
    for (const config of snapshot.configs) this.configs.set(config.indexName, config);
    for (const [name, outcome] of snapshot.builds) this.builds.set(name, outcome);
  }
}
