// The types of hostile-requests.mjs for the TypeScript that imports it (test/server/hostile.test.ts).
export interface HostileRequest { method: string; target: string; headers: Record<string, string>; body?: Buffer; raw?: Buffer }
export interface HostileAnswer { status: number; contentType: string; text: string; retryAfter?: string }
export function hostileRequests(seed: number, app: { appId: string; apiKey: string }): () => HostileRequest;
export function sendHostile(server: { host: string; port: number }, hostile: HostileRequest, timeoutMs?: number): Promise<HostileAnswer>;
