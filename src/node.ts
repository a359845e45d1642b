// lantern-search/node: what only Node and Electron have (the file system, node:http, NATS).
export { fsStorage } from './storage/fs.js';
export { serve, type ServeOptions } from './server/http.js';
export { natsCluster, type AdvertisedNodes, type NatsCluster, type NatsClusterOptions } from './nats/cluster.js';
