// Which stored key a secured key was derived from. The key does not name
// its parent (compatibility.md, "Secured API keys": base64(hex(HMAC(parent,
// qs)) + qs)), so there is no lookup: the one test is an HMAC per candidate
// parent. Each try is made cheap and the tries are few:
// - each stored key's HMAC state is computed once, when it is stored
//   (signing-keys.ts), and a try is the two SHA-256 compressions after it,
//   made in the WebAssembly core four keys at a time, over a list of the
//   candidates in one call (assembly/hmac-screen.ts: ~0.2 µs a key, against
//   ~50 µs for a WebCrypto HMAC); the one candidate found is confirmed with
//   WebCrypto;
// - only the keys that could serve the call are tried: a secured key has
//   no more than its parent's rights, indexes and referers, so a key
//   without the call's right, expired, or that cannot reach the call's
//   index or referer, signed no key that could be used on it (keys with
//   none of these restrictions are listed apart, per right, and need no
//   check: signing-keys.ts);
// - a key presented lately is answered from memory (its parent, checked to
//   be live still): no HMAC;
// - a new key is tried against the parents that signed keys lately first
//   (an application derives its keys from a few parents): at most
//   RECENT_PARENTS tries;
// - only then against every other candidate, and these scans are a budget
//   per source address (SCAN_BUDGET compressions a minute, at least one
//   whole scan): past it, a key no recent parent signed is refused unscanned.
// So a caller costs at most RECENT_PARENTS tries a call, plus the budget a
// minute; a new parent is found by its first key's scan, then kept.
import { RecentValues } from '../util/recent.js';
import { RateLimiter } from './rate-limit.js';
import type { ApiKey } from './api-keys.js';
import { hmacHex, type SecuredKey } from './secured-keys.js';
import { constantTimeEqual } from './constant-time.js';
import { ScreenedMessage } from './hmac-screen.js';
import type { Screened, Signer, SigningKeys } from './signing-keys.js';

const RECENT_KEYS = 4096;
export const RECENT_PARENTS = 16;
/** SHA-256 compressions a source address may spend a minute on scans (at least one whole scan): ~10,000 tries of a short key. */
export const SCAN_BUDGET = 20_000;
const MINUTE = 60_000;

/** Which stored keys may have signed a secured key used on a call. */
export interface ParentFilter {
  /** The right the call needs: only keys holding it are tried. */
  right: string;
  /** The one key that may be the parent (getApiKey reads its caller's own key), if the call names one. */
  named?: string;
  /**
   * The key's own checks: live, its indexes and referers cover the call.
   * True for every unrestricted key (isUnrestricted): those are tried
   * without asking.
   */
  admits(key: ApiKey): boolean;
}

export class SecuredKeyParents {
  /** Secured keys presented lately → the value of the key that signed them. */
  private readonly signedBy = new RecentValues<string, string>(RECENT_KEYS);
  /** Values of the keys that signed secured keys lately. */
  private readonly parents = new RecentValues<string, true>(RECENT_PARENTS);
  private readonly scans = new RateLimiter(Date.now, MINUTE);
  /** HMACs computed so far: candidates screened (hmac-screen.ts), parents confirmed (WebCrypto). */
  readonly hmacs = { screened: 0, confirmed: 0 };

  /**
   * The stored key that signed `secured` (presented as `presented`), if it
   * is among `signers` and passes `filter`; `sourceIp` pays for the scan.
   */
  async find(presented: string, secured: SecuredKey, signers: SigningKeys, filter: ParentFilter, sourceIp: string): Promise<ApiKey | undefined> {
    const fits = (signer: Signer | undefined): signer is Signer => signer !== undefined && mayHaveSigned(signer.key, filter);
    const known = this.signedBy.find(presented);
    if (known !== undefined) {
      const signer = signers.get(known);
      return fits(signer) ? signer.key : undefined;
    }
    const message = new ScreenedMessage(secured.qs, secured.mac);
    const recent = this.parents.newestFirst().map((value) => signers.get(value)).filter(fits);
    let parent = this.counted(signers.screenEach(message, recent));
    if (!parent) {
      // the scan is paid before it is made, for every key its right or name selects (the rest of the filter is applied as it goes)
      const selected = candidates(signers, filter);
      const cost = selected.size * message.compressions;
      if (!this.scans.spend(sourceIp, Math.max(SCAN_BUDGET, cost), cost)) return undefined;
      const tried = new Set(recent);
      parent = this.counted(filter.named === undefined
        ? signers.screenHolders(message, filter.right, fits, tried)
        : signers.screenEach(message, [...selected].filter((signer) => fits(signer) && !tried.has(signer))));
    }
    if (!parent || !(await this.confirm(parent.key, secured))) return undefined;
    this.signedBy.set(presented, parent.key.value);
    this.parents.set(parent.key.value, true);
    return parent.key;
  }

  /** The signer a screen found (which one signed is no secret: it stops at the first), its tries counted. */
  private counted({ signer, screened }: Screened): Signer | undefined {
    this.hmacs.screened += screened;
    return signer;
  }

  /** The screen's answer checked with WebCrypto: the key is trusted on the standard implementation's word. */
  private async confirm(parent: ApiKey, secured: SecuredKey): Promise<boolean> {
    this.hmacs.confirmed++;
    return constantTimeEqual(await hmacHex(parent.value, secured.qs), secured.mac);
  }
}

function mayHaveSigned(key: ApiKey, filter: ParentFilter): boolean {
  const reaches = filter.named === undefined ? key.acl.includes(filter.right) : key.value === filter.named;
  return reaches && filter.admits(key);
}

/** The signers the filter's right or name selects (not yet checked against the rest of it). */
function candidates(signers: SigningKeys, filter: ParentFilter): ReadonlySet<Signer> {
  if (filter.named === undefined) return signers.holding(filter.right);
  const named = signers.get(filter.named);
  return new Set(named ? [named] : []);
}
