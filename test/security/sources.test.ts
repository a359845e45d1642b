// The source allow-list: CRUD, IPv4/IPv6 CIDR, 1000 max, enforcement, no self-lock-out, durability.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Lantern } from '../../src/lantern.js';
import { fsStorage } from '../../src/storage/fs.js';
import { ADMIN_HEADERS, ADMIN_KEY, APP_ID, expectError, openEngine } from '../api/helpers.js';

function from(engine: Lantern, ip: string | undefined) {
  return async (method: string, path: string, body?: unknown) => {
    const r = await engine.request({ method, path, headers: ADMIN_HEADERS, body, sourceIp: ip });
    return { status: r.status, body: r.body as any };
  };
}

describe('source allow-list', () => {
  it('disabled by default; set, append, delete; enforced on every call', async () => {
    const engine = await openEngine();
    const local = from(engine, undefined);
    const outside = from(engine, '198.51.100.7');
    expect((await local('GET', '/1/security/sources')).body).toEqual([]);
    expect((await outside('GET', '/1/indexes')).status).toBe(200);

    const put = await local('PUT', '/1/security/sources', [{ source: '127.0.0.1/32', description: 'me' }, { source: '10.0.0.0/8' }, { source: '2001:db8::/32' }]);
    expect(put.body).toEqual({ updatedAt: expect.any(String) });
    expect((await local('GET', '/1/security/sources')).body).toEqual([
      { source: '127.0.0.1/32', description: 'me' }, { source: '10.0.0.0/8' }, { source: '2001:db8::/32' },
    ]);
    expectError(await outside('GET', '/1/indexes'), 403);
    expect((await from(engine, '10.1.2.3')('GET', '/1/indexes')).status).toBe(200);
    expect((await from(engine, '2001:db8:1::5')('GET', '/1/indexes')).status).toBe(200);
    expect((await from(engine, '2001:db9::5')('GET', '/1/indexes')).status).toBe(403);

    expect((await local('POST', '/1/security/sources/append', { source: '198.51.100.0/24', description: 'office' })).body).toEqual({ createdAt: expect.any(String) });
    expect((await outside('GET', '/1/indexes')).status).toBe(200);
    expect((await local('DELETE', `/1/security/sources/${encodeURIComponent('198.51.100.0/24')}`)).body).toEqual({ deletedAt: expect.any(String) });
    expectError(await outside('GET', '/1/indexes'), 403);
    expectError(await local('DELETE', `/1/security/sources/${encodeURIComponent('192.0.2.0/24')}`), 404);

    expect((await local('PUT', '/1/security/sources', [{ source: '0.0.0.0/0' }])).status).toBe(200);
    expect((await outside('GET', '/1/indexes')).status).toBe(200);
  });

  it('refuses bad sources, more than 1000, and self-lock-out', async () => {
    const engine = await openEngine();
    const local = from(engine, undefined);
    expectError(await local('PUT', '/1/security/sources', [{ source: '300.1.1.1' }]), 400);
    expectError(await local('PUT', '/1/security/sources', [{ source: '10.0.0.0/33' }]), 400);
    expectError(await local('PUT', '/1/security/sources', { source: '10.0.0.0/8' }), 400);
    expectError(await local('PUT', '/1/security/sources', [{ source: '10.0.0.0/8' }]), 400, /lock out/);
    expectError(await local('PUT', '/1/security/sources', []), 400, /lock out/);
    expectError(await local('POST', '/1/security/sources/append', { source: '10.0.0.0/8' }), 400, /lock out/);
    const many = Array.from({ length: 1001 }, (_, i) => ({ source: `10.${i >> 8}.${i & 255}.0/24` }));
    expectError(await local('PUT', '/1/security/sources', [{ source: '127.0.0.1' }, ...many.slice(1)]), 400, /1000/);
    expect((await local('PUT', '/1/security/sources', [{ source: '127.0.0.1' }, ...many.slice(2)])).status).toBe(200);
    expectError(await local('DELETE', '/1/security/sources/127.0.0.1'), 400, /lock out/);
    expect((await local('GET', '/1/security/sources')).body).toHaveLength(1000);
  });

  it('only the admin key manages it, and it survives a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lantern-sources-'));
    try {
      let engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, storage: fsStorage(dir) });
      const { key } = (await from(engine, undefined)('POST', '/1/keys', { acl: ['search', 'settings', 'editSettings'] })).body;
      const r = await engine.request({ method: 'GET', path: '/1/security/sources', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key } });
      expect(r.status).toBe(403);
      await from(engine, undefined)('PUT', '/1/security/sources', [{ source: '127.0.0.0/8' }]);
      await engine.close();
      engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, storage: fsStorage(dir) });
      expect((await from(engine, '198.51.100.7')('GET', '/1/indexes')).status).toBe(403);
      expect((await from(engine, undefined)('GET', '/1/security/sources')).body).toEqual([{ source: '127.0.0.0/8' }]);
      await engine.snapshot();
      await engine.close();
      engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY, storage: fsStorage(dir) });
      expect((await from(engine, '198.51.100.7')('GET', '/1/indexes')).status).toBe(403);
      await engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
