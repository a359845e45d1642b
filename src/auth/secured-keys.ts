// Secured API keys: base64(hex(HMAC-SHA256(parent key, qs)) + qs), derived
// offline from a stored (non-admin) key. Verification recomputes the HMAC
// with WebCrypto over the embedded query string for candidate parents and
// compares in constant time (which candidates: secured-parents.ts). Both
// client encodings are accepted: the v5 client's (sorted keys, comma-joined
// arrays) and the v4 client's (insertion order, JSON arrays) — the HMAC is
// over the bytes as sent, so either works.

export interface SecuredKey {
  /** The hex HMAC as embedded. */
  mac: string;
  /** The restrictions as the URL-encoded query string that was signed. */
  qs: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

function base64Decode(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The parts of a secured key, or undefined if `key` does not have its shape. */
export function parseSecuredKey(key: string): SecuredKey | undefined {
  if (key.length < 88) return undefined; // 64 hex digits of MAC, base64-encoded
  const decoded = base64Decode(key);
  if (decoded === undefined) return undefined;
  const mac = decoded.slice(0, 64);
  if (!HEX64.test(mac)) return undefined;
  return { mac, qs: decoded.slice(64) };
}

const encoder = new TextEncoder();

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Builds a secured key the way the v5 client does (sorted keys, arrays comma-joined). */
export async function generateSecuredKey(parent: string, restrictions: Record<string, unknown>): Promise<string> {
  const qs = Object.keys(restrictions).filter((k) => restrictions[k] !== undefined).sort()
    .map((k) => {
      const v = restrictions[k];
      return `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v)).replace(/\+/g, '%20')}`;
    }).join('&');
  const text = (await hmacHex(parent, qs)) + qs;
  return btoa(String.fromCharCode(...encoder.encode(text)));
}

/** Restrictions that are not search parameters. */
export const SECURED_ONLY = ['validUntil', 'restrictIndices', 'restrictSources', 'referers', 'userToken'];

export interface SecuredRestrictions {
  validUntil?: number;
  restrictIndices?: string[];
  restrictSources?: string[];
  referers?: string[];
  userToken?: string;
  /** Every other restriction: search parameters as raw strings (a `params` string). */
  searchParams: string;
}

/** A list restriction: JSON array (v4) or comma-separated (v5); undefined when a JSON entry is neither text nor a number. */
function list(text: string): string[] | undefined {
  const t = text.trim();
  if (t.startsWith('[')) {
    try {
      const v = JSON.parse(t);
      if (Array.isArray(v)) return v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.map(String) : undefined;
    } catch { /* fall through: a name that starts with "[" */ }
  }
  return t === '' ? [] : t.split(',').map((s) => s.trim());
}

/** Reads the signed query string; undefined when it cannot be read (→ 403). */
export function readRestrictions(qs: string): SecuredRestrictions | undefined {
  const out: SecuredRestrictions = { searchParams: '' };
  const rest = new URLSearchParams();
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(qs);
  } catch {
    return undefined;
  }
  for (const [k, v] of params) {
    switch (k) {
      case 'validUntil': {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n)) return undefined;
        out.validUntil = n;
        break;
      }
      case 'restrictIndices':
      case 'restrictSources':
      case 'referers': {
        const entries = list(v);
        if (!entries) return undefined;
        out[k] = entries;
        break;
      }
      case 'userToken': out.userToken = v; break;
      default: rest.append(k, v);
    }
  }
  out.searchParams = rest.toString();
  return out;
}
