// The fixtures every suite reads (copied from ../shared/datasets).
import { readFileSync } from 'node:fs';

export function readFixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
}

/** The TED talks fixture settings, without `slaves` (replicas are another feature). */
export function talksSettings(): Record<string, unknown> {
  const settings = readFixture<Record<string, unknown>>('talks_settings.json');
  delete settings.slaves;
  return settings;
}
