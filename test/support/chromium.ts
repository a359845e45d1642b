// Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's
// /usr/bin/chromium. Without it, a developer's run skips them with a warning
// and a CI run (CI set) fails, so a green CI always ran every browser test.
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether `file`'s browser tests can run; throws under CI when they cannot. */
export function chromiumFor(file: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const missing = `${file}: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI) throw new Error(`${missing}; CI runs every browser test`);
  console.warn(`${missing}; its real-browser tests are skipped`);
  return false;
}
