// Which stored key a secured key was derived from. The key does not name
// its parent (compatibility.md, "Secured API keys": base64(hex(HMAC(parent,
// qs)) + qs)), so there is no lookup: the one test is an HMAC per candidate
// parent, and a forged key cost one HMAC per stored key (148 ms with 1,000
// keys). The work is bounded instead, whatever the number of stored keys:
// - a key presented lately is answered from memory (its parent, checked to
//   be live still): no HMAC;
// - a new key is tried against the parents that signed keys lately first
//   (an application derives its keys from a few parents): at most
//   RECENT_PARENTS HMACs;
// - only then against every other stored key, and these scans are a budget
//   per source address (SCAN_BUDGET HMACs a minute, at least one whole
//   scan): past it, a key no recent parent signed is refused unscanned.
// So a caller costs at most RECENT_PARENTS HMACs a call, plus the budget a
// minute; a new parent is found by its first key's scan, then kept.
import { RecentValues } from '../util/recent.js';
import { RateLimiter } from './rate-limit.js';
import { hmacHex, type SecuredKey } from './secured-keys.js';
import { constantTimeEqual } from './constant-time.js';

const RECENT_KEYS = 4096;
export const RECENT_PARENTS = 16;
/** HMACs a source address may spend a minute on scans (at least one whole scan). */
export const SCAN_BUDGET = 10_000;
const MINUTE = 60_000;

interface Candidate { value: string }

export class SecuredKeyParents {
  /** Secured keys presented lately → the value of the key that signed them. */
  private readonly signedBy = new RecentValues<string, string>(RECENT_KEYS);
  /** Values of the keys that signed secured keys lately. */
  private readonly parents = new RecentValues<string, true>(RECENT_PARENTS);
  private readonly scans = new RateLimiter(Date.now, MINUTE);

  /**
   * The candidate that signed `secured` (presented as `presented`), if any.
   * `candidates` are the live stored keys; `sourceIp` pays for the scan.
   */
  async find<T extends Candidate>(presented: string, secured: SecuredKey, candidates: T[], sourceIp: string): Promise<T | undefined> {
    const byValue = new Map(candidates.map((c) => [c.value, c]));
    const known = this.signedBy.find(presented);
    if (known !== undefined) return byValue.get(known);
    const recent = this.parents.newestFirst().flatMap((value) => byValue.get(value) ?? []);
    let parent = await this.signer(secured, recent);
    if (!parent) {
      const tried = new Set(recent);
      const others = candidates.filter((c) => !tried.has(c));
      const budget = Math.max(SCAN_BUDGET, others.length);
      if (!this.scans.spend(sourceIp, budget, others.length)) return undefined;
      parent = await this.signer(secured, others);
    }
    if (parent) {
      this.signedBy.set(presented, parent.value);
      this.parents.set(parent.value, true);
    }
    return parent;
  }

  /** The first candidate whose HMAC over the restrictions is the key's (which one signed is no secret: no need to try them all). */
  private async signer<T extends Candidate>(secured: SecuredKey, candidates: T[]): Promise<T | undefined> {
    for (const candidate of candidates) {
      if (constantTimeEqual(await this.sign(candidate.value, secured.qs), secured.mac)) return candidate;
    }
    return undefined;
  }

  /** The one place a secured key's HMAC is computed (the tests count the calls here). */
  sign(secret: string, qs: string): Promise<string> {
    return hmacHex(secret, qs);
  }
}
