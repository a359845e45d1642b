// The types of readme.mjs for the TypeScript that imports it (test/bench/readme-block.test.ts).
export const START: string;
export const END: string;
export interface ResultTable { headers: string[]; rows: Map<string, string[]>; records: string }
export function readTable(results: string, heading: string): ResultTable;
export function benchmarkBlock(results: string): string;
export function withBlock(readme: string, block: string): string;
