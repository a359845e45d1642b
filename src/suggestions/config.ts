// Query suggestion configurations and the record of their last build.

export interface SourceIndex {
  indexName: string;
  replicas: boolean;
  analyticsTags: string[];
  facets: Array<{ attribute: string; amount: number }>;
  minHits: number;
  minLetters: number;
  generate: string[][];
  external: string[];
}

export interface SuggestionsConfig {
  indexName: string;
  sourceIndices: SourceIndex[];
  exclude: string[];
  languages: string[] | boolean;
  allowSpecialCharacters: boolean;
  enablePersonalization: boolean;
}

export interface LogLine { timestamp: string; level: 'INFO' | 'SKIP' | 'ERROR'; message: string; contextLevel: number }

export interface SuggestionsBuild { indexName: string; lastBuiltAt: string; log: LogLine[] }
