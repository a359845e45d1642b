// The HMAC screen of the WebAssembly core (assembly/hmac-screen.ts) against
// node:crypto: keys of every length (longer than a block too), messages of
// 0..200 bytes (across the block boundaries), the signer in each of the four
// lanes and in a last group of fewer than four, keys freed and their slots
// reused; and the TypeScript SHA-256 the key states are made with.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { hmacState, ScreenedMessage, sha256Hex } from '../../src/auth/hmac-screen.js';
import { SignerSlots } from '../../src/core/signer-slots.js';
import { loadCore } from '../../src/core/wasm.js';

beforeAll(loadCore);

/** A random secret of `length` characters, some of them beyond ASCII. */
const secretOf = (length: number) => Array.from(randomBytes(length), (b) => (b % 7 === 0 ? 'é' : String.fromCharCode(33 + (b % 90)))).join('');
/** A random query string of `length` bytes. */
const messageOf = (length: number) => Array.from(randomBytes(length), (b) => String.fromCharCode(97 + (b % 26))).join('');
const macOf = (secret: string, message: string) => createHmac('sha256', secret).update(message).digest('hex');

/** A list of `count` slots stored with fresh keys, and the keys (distinct: short ones may repeat, and the first that signed is found). */
function storeKeys(slots: SignerSlots, count: number, length = () => 1 + Math.floor(Math.random() * 100)) {
  const secrets = new Set<string>();
  while (secrets.size < count) secrets.add(secretOf(length()));
  return { secrets: [...secrets], list: Int32Array.from(secrets, (secret) => slots.store(hmacState(secret))) };
}

describe('the core\'s HMAC screen against node:crypto', () => {
  it('finds the signer at every place of lists of 1 to 13 keys (each lane, and a last group short of four)', () => {
    const slots = new SignerSlots();
    for (let count = 1; count <= 13; count++) {
      const { secrets, list } = storeKeys(slots, count);
      const message = messageOf(count * 7);
      for (let place = 0; place < count; place++) {
        expect(slots.screen(new ScreenedMessage(message, macOf(secrets[place], message)), list, count), `${place} of ${count}`).toBe(place);
      }
      expect(slots.screen(new ScreenedMessage(message, macOf(secretOf(20), message)), list, count)).toBe(-1);
      // a list cut short never answers past its end
      if (count > 1) expect(slots.screen(new ScreenedMessage(message, macOf(secrets[count - 1], message)), list, count - 1)).toBe(-1);
    }
  });

  it('messages of 0 to 200 bytes and keys of 0 to 140 characters: the signer found, a MAC one bit off not', () => {
    const slots = new SignerSlots();
    for (let n = 0; n <= 200; n++) {
      const { secrets, list } = storeKeys(slots, 6, () => Math.floor(Math.random() * 141));
      const message = messageOf(n);
      const place = n % 6;
      const mac = macOf(secrets[place], message);
      expect(slots.screen(new ScreenedMessage(message, mac), list, 6), `length ${n}`).toBe(place);
      const flipped = mac.slice(0, 63) + (parseInt(mac[63], 16) ^ 1).toString(16);
      expect(slots.screen(new ScreenedMessage(message, flipped), list, 6)).toBe(-1);
      const firstWordFlipped = (parseInt(mac[0], 16) ^ 8).toString(16) + mac.slice(1);
      expect(slots.screen(new ScreenedMessage(message, firstWordFlipped), list, 6)).toBe(-1);
      for (const slot of list) slots.free(slot);
    }
  });

  it('many keys: the signer found wherever it is, the first of two that signed', () => {
    const slots = new SignerSlots();
    const { secrets, list } = storeKeys(slots, 1001);
    const message = messageOf(60);
    for (const place of [0, 1, 2, 3, 4, 517, 998, 999, 1000]) {
      expect(slots.screen(new ScreenedMessage(message, macOf(secrets[place], message)), list, list.length)).toBe(place);
    }
    const twice = Int32Array.of(...list.slice(0, 10), list[6]);
    expect(slots.screen(new ScreenedMessage(message, macOf(secrets[6], message)), twice, twice.length)).toBe(6);
  });

  it('a freed slot no longer signs, and is reused for the next key stored', () => {
    const slots = new SignerSlots();
    const { secrets, list } = storeKeys(slots, 8);
    const message = 'filters=owner%3Aalice';
    const mac = (i: number) => new ScreenedMessage(message, macOf(secrets[i], message));
    slots.free(list[5]);
    slots.free(list[2]);
    expect(slots.screen(mac(5), list, 8)).toBe(-1);
    expect(slots.screen(mac(2), list, 8)).toBe(-1);
    expect(slots.screen(mac(7), list, 8)).toBe(7);
    // the last freed first
    const newcomer = secretOf(30);
    expect(slots.store(hmacState(newcomer))).toBe(list[2]);
    expect(slots.store(hmacState(secrets[5]))).toBe(list[5]);
    expect(slots.screen(new ScreenedMessage(message, macOf(newcomer, message)), list, 8)).toBe(2);
    expect(slots.screen(mac(5), list, 8)).toBe(5);
    expect(slots.screen(mac(2), list, 8)).toBe(-1);
    // a new slot once none is free
    expect(slots.store(hmacState(secretOf(5)))).toBe(8);
  });
});

describe('the TypeScript SHA-256', () => {
  it('matches node:crypto over every length around the block boundaries', () => {
    for (let n = 0; n < 200; n++) {
      const message = 'q='.repeat(n) + '%C3%A9';
      expect(sha256Hex(message)).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });
});
