// lantern-search/client: what a page needs to talk to an engine it does not
// hold (in a worker, or on a server through the official client): the
// official client's requester and the worker connection. No engine, no
// WebAssembly: a page bundle of a few kilobytes.
export { lanternRequester } from './requester.js';
export { connectWorker, type RemoteLantern } from './worker-client.js';
export { ApiError } from './util/errors.js';
export type { ApiRequest, ApiResponse } from './api/types.js';
export type { LanternClient, LanternExtras, LanternHelpers, LanternVectorMethods, SaveObjectsArgs, VectorAnswer, VectorSearchParams } from './api/client.js';
export type { FollowState } from './follow/options.js';
