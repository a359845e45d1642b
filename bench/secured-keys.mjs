// Refusing costs little (issue #46, item 4): the time to answer a search
// call made with a key no stored key signed, with 1,000 and 100,000 stored
// keys (every one able to search every index: the worst case, each one a
// candidate parent), against a wrong plain key and a genuine secured key's
// first use. Targets: a forged secured-looking key refused in under 2 ms
// with 1,000 keys, under 20 ms with 100,000.
//
// Each key is new to the engine (distinct forged keys, distinct plain
// values, genuine keys of parents not used before) so that no memory of
// keys or parents helps. Forged keys are sent from a new address each
// (every call a whole scan: an attacker who has many addresses) and, apart,
// all from one address (its scan budget then refuses them unscanned). The
// first call of each kind is reported apart from the median of the rest.
//
//   node bench/secured-keys.mjs [--keys 1000,100000] [--calls 40]
import { createHmac, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { median } from './measure.mjs';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '1000,100000' }, calls: { type: 'string', default: '40' } } });
const SIZES = values.keys.split(',').map(Number);
const CALLS = Number(values.calls);
const { Lantern } = await import('lantern-search');

const APP_ID = 'BENCH';
const ADMIN_KEY = 'bench-admin-key';
const QUERY = '/1/indexes/bench/query';

/** A key of the secured shape signed by no stored key (a query string of one SHA-256 block, as most are). */
const forged = () => Buffer.from(createHmac('sha256', randomBytes(16)).update('x').digest('hex') + `filters=owner%3A${randomBytes(4).toString('hex')}`).toString('base64');
/** A genuine secured key, as the official v5 client derives it. @param {string} parent */
const secured = (parent) => {
  const qs = `filters=owner%3A${randomBytes(4).toString('hex')}`;
  return Buffer.from(createHmac('sha256', parent).update(qs).digest('hex') + qs).toString('base64');
};

let address = 0;
/** A new IPv4 address for each call (the scan budget is per address). */
const newAddress = () => `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address++ & 255}`;

/**
 * @param {import('lantern-search').Lantern} engine
 * @param {string} key
 * @param {string} sourceIp
 * @returns {Promise<[number, number]>} the status and the milliseconds taken
 */
async function timedCall(engine, key, sourceIp) {
  const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key };
  const started = performance.now();
  const response = await engine.request({ method: 'POST', path: QUERY, headers, body: { query: 'x' }, sourceIp });
  return [response.status, performance.now() - started];
}

/**
 * The first call's time and the median of the others (each `makeKey()` from `address()`), all expected to answer `status`.
 * @param {import('lantern-search').Lantern} engine
 * @param {() => string} makeKey
 * @param {() => string} address
 * @param {number} status
 */
async function measure(engine, makeKey, address, status) {
  const times = [];
  for (let i = 0; i <= CALLS; i++) {
    const [got, ms] = await timedCall(engine, makeKey(), address());
    if (got !== status) throw new Error(`expected ${status}, answered ${got}`);
    times.push(ms);
  }
  return { first: times[0], median: median(times.slice(1)) };
}

/** @param {number} value */
const ms = (value) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

for (const size of SIZES) {
  const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  const admin = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY };
  await engine.request({ method: 'PUT', path: '/1/indexes/bench/1', headers: admin, body: { title: 'x', owner: 'a' } });
  await engine.waitForTasks();
  const storing = performance.now();
  /** @type {string[]} */
  const parents = [];
  for (let i = 0; i < size; i++) {
    const response = await engine.request({ method: 'POST', path: '/1/keys', headers: admin, body: { acl: ['search'] } });
    parents.push(/** @type {{ key: string }} */ (response.body).key);
  }
  const stored = performance.now() - storing;
  // the code warmed on a few calls of each kind, from addresses of their own
  for (let i = 0; i < 5; i++) {
    await timedCall(engine, forged(), newAddress());
    await timedCall(engine, randomBytes(16).toString('hex'), newAddress());
  }
  const forgedFirst = await timedCall(engine, forged(), newAddress());
  const forgedEach = await measure(engine, forged, newAddress, 403);
  const oneAddress = newAddress();
  const forgedOne = await measure(engine, forged, () => oneAddress, 403);
  const plain = await measure(engine, () => randomBytes(16).toString('hex'), newAddress, 403);
  // genuine keys of parents never used, taken from the end of the store (tried last)
  let next = parents.length;
  const genuine = await measure(engine, () => secured(parents[--next]), newAddress, 200);
  const { hmacs } = engine.services.securedKeyParents;
  console.log(`${size.toLocaleString('en')} keys stored (${ms(stored)}, ${(stored * 1000 / size).toFixed(0)} µs a key, HMAC state included)`);
  console.log(`  forged secured key, a new address each: first ${ms(forgedFirst[1])}, median ${ms(forgedEach.median)} (${CALLS} calls)`);
  console.log(`  forged secured key, one address:        first ${ms(forgedOne.first)}, median ${ms(forgedOne.median)} (scan budget spent: refused unscanned)`);
  console.log(`  wrong plain key:                        first ${ms(plain.first)}, median ${ms(plain.median)}`);
  console.log(`  genuine secured key, first use:         first ${ms(genuine.first)}, median ${ms(genuine.median)} (parent among the last stored: tried last)`);
  console.log(`  HMACs: ${hmacs.screened.toLocaleString('en')} screened, ${hmacs.confirmed} confirmed with WebCrypto`);
  await engine.close();
}
