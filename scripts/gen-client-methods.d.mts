// The types of gen-client-methods.mjs for the TypeScript that imports it (test/package/client-methods.test.ts).
export const PAGE: string;
export function clientMethodsPage(): Promise<string>;
