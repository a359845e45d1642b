// A small product catalog for the client and library tests: brands and
// categories to facet on, prices to filter and rank by.
import type { Server } from 'node:http';
import { Lantern } from '../../src/lantern.js';
import type { ServeOptions } from '../../src/server/http.js';
import { serveHere } from '../support/in-process-server.js';

export const APP_ID = 'LIBAPP';
export const ADMIN_KEY = 'libraries-admin-key';

export interface Product { objectID: string; name: string; brand: string; category: string; price: number; popularity: number }

const MODELS: Array<[string, string, string, number]> = [
  ['Apple', 'phone', 'iPhone 15', 799], ['Apple', 'phone', 'iPhone 15 Pro', 999], ['Apple', 'laptop', 'MacBook Air', 1099],
  ['Apple', 'laptop', 'MacBook Pro', 1999], ['Apple', 'tablet', 'iPad mini', 499], ['Apple', 'headphones', 'AirPods Pro', 249],
  ['Samsung', 'phone', 'Galaxy S24', 799], ['Samsung', 'phone', 'Galaxy Z Flip', 999], ['Samsung', 'tablet', 'Galaxy Tab S9', 849],
  ['Samsung', 'headphones', 'Galaxy Buds', 149], ['Google', 'phone', 'Pixel 8', 699], ['Google', 'phone', 'Pixel 8 Pro', 999],
  ['Google', 'tablet', 'Pixel Tablet', 499], ['Sony', 'headphones', 'WH-1000XM5 wireless headphones', 399],
  ['Sony', 'headphones', 'WF-1000XM5 earbuds', 299], ['Sony', 'camera', 'Alpha 7 IV camera', 2499],
  ['Dell', 'laptop', 'XPS 13 laptop', 1299], ['Dell', 'laptop', 'XPS 15 laptop', 1899], ['Lenovo', 'laptop', 'ThinkPad X1 Carbon', 1799],
  ['Lenovo', 'tablet', 'Tab P12', 399],
];

export const PRODUCTS: Product[] = MODELS.map(([brand, category, name, price], i) => ({
  objectID: `p${i + 1}`, name, brand, category, price, popularity: 100 - i,
}));

export const SETTINGS = {
  searchableAttributes: ['name', 'brand', 'category'],
  attributesForFaceting: ['searchable(brand)', 'category', 'filterOnly(price)'],
  customRanking: ['desc(popularity)'],
};

export const count = (pred: (p: Product) => boolean) => PRODUCTS.filter(pred).length;

export interface Running { engine: Lantern; server: Server; port: number; origin: string; close: () => Promise<void> }

/** An engine with the test credentials behind `serve()` on a random port (`fallback` answers other paths first). */
export async function startLantern(fallback?: ServeOptions['fallback']): Promise<Running> {
  const engine = await Lantern.open({ appId: APP_ID, adminKey: ADMIN_KEY });
  const served = await serveHere(engine, { host: '127.0.0.1', fallback });
  return {
    engine, server: served.server, port: served.port, origin: served.origin,
    close: async () => {
      await served.close();
      await engine.close();
    },
  };
}
