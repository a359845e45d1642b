// lantern-search: the engine, its storage adapters for any runtime, and the
// requester that plugs the official client into it.
export { Lantern, type LanternOptions } from './lantern.js';
export { lanternRequester } from './requester.js';
export { memoryStorage, type Storage, type AppendOptions, type Entry, type StoredState, type Unusable } from './storage/storage.js';
export {
  StorageError, EncryptionKeyError, MissingEncryptionKeyError, WrongEncryptionKeyError, StoreLockedError, StoreDamagedError, StorageWriteError, StoreFormatError,
} from './storage/errors.js';
export { SnapshotFormatError } from './durability/snapshot-upgrade.js';
export { LogTrimmedError, type SharedLog, type SharedEntry, type NewEntry } from './durability/shared-log.js';
export { idbStorage, type IdbStorageOptions } from './storage/idb.js';
export { ApiError, ERROR_STATUS, type ErrorCode } from './util/errors.js';
export type { ApiRequest, ApiResponse } from './api/types.js';
export type { LanternClient, LanternVectorMethods, SaveObjectsArgs, VectorAnswer, VectorSearchParams } from './api/client.js';
export type { Follower } from './follow/follower.js';
export type { FollowOptions, FollowState } from './follow/options.js';
