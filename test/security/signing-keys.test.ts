// Which stored keys a scan screens (signing-keys.ts over the core's screen):
// the holders of the call's right, unrestricted ones from their per-right
// slot lists, restricted ones as the filter admits them, the parents tried
// already left out; deleting, changing and clearing keys keeps the lists
// true; keys held before the core is loaded are screened once it is. Real
// HMACs (node:crypto) against the real core.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../../src/auth/api-keys.js';
import { ScreenedMessage } from '../../src/auth/hmac-screen.js';
import { SigningKeys, type Signer } from '../../src/auth/signing-keys.js';
import { isCoreLoaded, loadCore } from '../../src/core/wasm.js';

const key = (value: string, acl: string[], restrictions: Partial<ApiKey> = {}): ApiKey => ({
  value, createdAt: 0, acl, description: '', indexes: [], maxHitsPerQuery: 0, maxQueriesPerIPPerHour: 0,
  queryParameters: '', referers: [], validity: 0, expiresAt: 0, ...restrictions,
});
const QS = 'filters=owner%3Aalice';
const signedBy = (value: string) => new ScreenedMessage(QS, createHmac('sha256', value).update(QS).digest('hex'));
const NOBODY = new ScreenedMessage(QS, 'ab'.repeat(32));
const NONE = new Set<Signer>();
const everyOne = () => true;

function keysFor(): SigningKeys {
  const keys = new SigningKeys();
  for (let i = 0; i < 10; i++) keys.add(key(`plain-${i}`, ['search']));
  for (let i = 0; i < 3; i++) keys.add(key(`shop-${i}`, ['search'], { referers: ['https://shop.test/*'] }));
  keys.add(key('books', ['search', 'browse'], { indexes: ['Books'] }));
  keys.add(key('browse', ['browse']));
  return keys;
}

describe('the signers a scan screens', () => {
  // first: this file's module graph is its own, so the core is not loaded yet (each test after loads it)
  it('keys held before the core is loaded (a shared key directory\'s) get their slots at the first screen', async () => {
    expect(isCoreLoaded()).toBe(false);
    const keys = keysFor();
    expect(keys.get('plain-3')!.slot).toBe(-1);
    await loadCore();
    expect(keys.screenHolders(signedBy('plain-3'), 'search', everyOne, NONE)).toEqual({ signer: keys.get('plain-3'), screened: 4 });
    keys.add(key('later', ['search']));
    expect(keys.get('later')!.slot).toBeGreaterThanOrEqual(0);
    expect(keys.screenHolders(signedBy('later'), 'search', everyOne, NONE).signer?.key.value).toBe('later');
  });

  it('every holder of the right, restricted ones only as admitted, and never another right\'s', async () => {
    await loadCore();
    const keys = keysFor();
    expect(keys.screenHolders(NOBODY, 'search', everyOne, NONE)).toEqual({ signer: undefined, screened: 14 });
    expect(keys.screenHolders(NOBODY, 'search', () => false, NONE)).toEqual({ signer: undefined, screened: 10 });
    expect(keys.screenHolders(NOBODY, 'browse', everyOne, NONE).screened).toBe(2);
    for (const value of ['plain-0', 'plain-9', 'shop-1', 'books']) {
      expect(keys.screenHolders(signedBy(value), 'search', everyOne, NONE).signer?.key.value).toBe(value);
    }
    // a restricted key the filter refuses is not tried, so not found
    expect(keys.screenHolders(signedBy('shop-1'), 'search', (signer) => signer.key.value !== 'shop-1', NONE).signer).toBeUndefined();
    expect(keys.screenHolders(signedBy('browse'), 'search', everyOne, NONE).signer).toBeUndefined();
    expect(keys.screenHolders(signedBy('browse'), 'browse', everyOne, NONE).signer?.key.value).toBe('browse');
  });

  it('the parents tried already are left out, the others in their order', async () => {
    await loadCore();
    const keys = keysFor();
    const skipped = new Set(['plain-2', 'plain-7', 'shop-0'].map((value) => keys.get(value)!));
    expect(keys.screenHolders(NOBODY, 'search', everyOne, skipped).screened).toBe(11);
    expect(keys.screenHolders(signedBy('plain-7'), 'search', everyOne, skipped).signer).toBeUndefined();
    expect(keys.screenHolders(signedBy('shop-0'), 'search', everyOne, skipped).signer).toBeUndefined();
    // the keys stored in order are screened in order: plain-9 is the 8th left of plain-0..9
    expect(keys.screenHolders(signedBy('plain-9'), 'search', everyOne, skipped)).toEqual({ signer: keys.get('plain-9'), screened: 8 });
    expect(keys.screenEach(signedBy('plain-7'), [...skipped])).toEqual({ signer: keys.get('plain-7'), screened: 2 });
  });

  it('a deleted key is screened no more; a changed key is screened as it is now; a cleared set screens nothing', async () => {
    await loadCore();
    const keys = keysFor();
    keys.remove('plain-4');
    expect(keys.screenHolders(signedBy('plain-4'), 'search', everyOne, NONE)).toEqual({ signer: undefined, screened: 13 });
    // its slot is reused by the next key stored, which signs
    keys.add(key('newcomer', ['search']));
    expect(keys.get('newcomer')!.slot).toBe(4);
    expect(keys.screenHolders(signedBy('newcomer'), 'search', everyOne, NONE).signer?.key.value).toBe('newcomer');
    expect(keys.screenHolders(signedBy('plain-4'), 'search', everyOne, NONE).signer).toBeUndefined();
    // restricted now: tried only as admitted; then without the right at all
    keys.add(key('plain-5', ['search'], { expiresAt: Date.now() + 60_000 }));
    expect(keys.screenHolders(signedBy('plain-5'), 'search', () => false, NONE).signer).toBeUndefined();
    expect(keys.screenHolders(signedBy('plain-5'), 'search', everyOne, NONE).signer?.key.value).toBe('plain-5');
    keys.add(key('plain-5', ['browse']));
    expect(keys.screenHolders(signedBy('plain-5'), 'search', everyOne, NONE).signer).toBeUndefined();
    expect(keys.screenHolders(signedBy('plain-5'), 'browse', everyOne, NONE).signer?.key.value).toBe('plain-5');
    keys.clear();
    expect(keys.screenHolders(signedBy('plain-0'), 'search', everyOne, NONE)).toEqual({ signer: undefined, screened: 0 });
    keys.add(key('again', ['search']));
    expect(keys.screenHolders(signedBy('again'), 'search', everyOne, NONE)).toEqual({ signer: keys.get('again'), screened: 1 });
  });
});
