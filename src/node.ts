// lantern-search/node: what only Node and Electron have (the file system, node:http, NATS).
// Its declarations name Node's types (serve's Server): the reference below
// loads them (an installed @types/node) without the app listing "node" in
// its tsconfig's "types", which TypeScript 7 leaves empty by default.
/// <reference types="node" preserve="true" />
export { fsStorage } from './storage/fs.js';
export { serve, type ServeOptions } from './server/http.js';
export { natsCluster, type AdvertisedNodes, type NatsCluster, type NatsClusterOptions } from './nats/cluster.js';
