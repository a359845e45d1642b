// IPv4 and IPv6 addresses and CIDR networks, as bigints.

interface Address { v6: boolean; value: bigint }

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    value = (value << 8n) | BigInt(Number(p));
  }
  return value;
}

function parseV6(text: string): bigint | undefined {
  let head = text;
  let tail4: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tail4 = parseV4(text.slice(lastColon + 1));
    if (tail4 === undefined) return undefined;
    head = text.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...left, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = 0n;
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  if (tail4 !== undefined) value = (value & ~0xffffffffn) | tail4;
  return value;
}

export function parseAddress(text: string): Address | undefined {
  const t = text.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (t.includes(':')) {
    const value = parseV6(t);
    if (value === undefined) return undefined;
    // IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 address
    if (value >> 32n === 0xffffn) return { v6: false, value: value & 0xffffffffn };
    return { v6: true, value };
  }
  const value = parseV4(t);
  return value === undefined ? undefined : { v6: false, value };
}

export interface Network { v6: boolean; base: bigint; bits: number }

/** `a.b.c.d`, `a.b.c.d/n`, IPv6 with or without `/n`; undefined if invalid. */
export function parseNetwork(text: string): Network | undefined {
  if (typeof text !== 'string') return undefined;
  const [addr, prefix, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const a = parseAddress(addr);
  if (!a || addr.includes('%')) return undefined;
  const width = a.v6 ? 128 : 32;
  let bits = width;
  if (prefix !== undefined) {
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > width) return undefined;
    bits = Number(prefix);
  }
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(width - bits);
  return { v6: a.v6, base: a.value & mask, bits };
}

export function inNetwork(network: Network, address: string): boolean {
  const a = parseAddress(address);
  if (!a) return false;
  if (network.bits === 0 && !network.v6) return true; // 0.0.0.0/0: every source
  if (a.v6 !== network.v6) return false;
  const width = a.v6 ? 128 : 32;
  const mask = network.bits === 0 ? 0n : ((1n << BigInt(network.bits)) - 1n) << BigInt(width - network.bits);
  return (a.value & mask) === network.base;
}

/** Whether `address` lies in one of the networks (invalid entries match nothing). */
export function inAnyNetwork(networks: readonly string[], address: string): boolean {
  return networks.some((n) => {
    const network = parseNetwork(n);
    return network !== undefined && inNetwork(network, address);
  });
}
