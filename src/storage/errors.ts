// What can go wrong with stored data, one class per thing an operator or a
// caller does something different about. Messages are one line, written for
// the person who has to act on them (they name the file and what to run).

/** The stored data cannot be read or written as it should. */
export class StorageError extends Error {
  /** `'StorageError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'StorageError';
}

/** Where the command line takes a store's key from. */
const KEY_HINT = 'set LANTERN_ENCRYPTION_KEY or pass --key-file FILE';

/**
 * The data cannot be read with the key given (or without one): nothing falls
 * back, the open (or the repair) fails and changes nothing. One of the two
 * classes below is thrown; catch this one for either.
 */
export class EncryptionKeyError extends StorageError {
  /** `'EncryptionKeyError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'EncryptionKeyError';
}

/** The store holds encrypted data and no key was given. */
export class MissingEncryptionKeyError extends EncryptionKeyError {
  /** `'MissingEncryptionKeyError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'MissingEncryptionKeyError';
  constructor() {
    super(`the data is encrypted: open it with its encryptionKey (lantern: ${KEY_HINT})`);
  }
}

/**
 * The key given decrypts none of the store's encrypted data: it is not the
 * store's key. (One piece that fails among others that decrypt is damage,
 * not a wrong key: see recovery.ts.)
 */
export class WrongEncryptionKeyError extends EncryptionKeyError {
  /** `'WrongEncryptionKeyError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'WrongEncryptionKeyError';
  constructor() {
    super(`cannot decrypt the data: wrong encryptionKey (lantern: ${KEY_HINT})`);
  }
}

/**
 * The store, or a piece of it, was written by a newer Lantern in a format
 * this one does not read: refused before anything is changed, never opened
 * wrong nor taken for damage (a repair would write over what it cannot read).
 */
export class StoreFormatError extends StorageError {
  /** `'StoreFormatError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'StoreFormatError';
}

/** Another writer holds the store. */
export class StoreLockedError extends StorageError {
  /** `'StoreLockedError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'StoreLockedError';
}

/**
 * Opening would lose acknowledged writes or start from the wrong files: the
 * store is left as it is, and `problems` say what was found. Opening with
 * `repair: true` (`lantern repair`) keeps what can be kept and reports the rest.
 */
export class StoreDamagedError extends StorageError {
  /** `'StoreDamagedError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'StoreDamagedError';
  /**
   * @param problems - each problem found, one line each.
   * @param hint - what to do next (the repair to run), appended to the message.
   */
  constructor(readonly problems: string[], hint: string) {
    super(`the store is damaged: ${problems.join('; ')}. ${hint}`);
  }
}

/**
 * A write could not be made durable (the disk is full, or the device failed):
 * it is not acknowledged, and the log is as it was before it.
 */
export class StorageWriteError extends StorageError {
  /** `'StorageWriteError'`: how to tell the error apart where bundles hold copies of the class (instanceof may not). */
  override name = 'StorageWriteError';
  /** @param diskFull - the disk (or the quota) is full: answered 507 rather than 503. */
  constructor(message: string, readonly diskFull: boolean) {
    super(message);
  }
}

/**
 * Whether `e` is a StorageWriteError, by name: the storage adapters of
 * `lantern-search/node` are bundled apart from the engine, so the class a
 * storage throws is not always the class the engine imported.
 */
export function isStorageWriteError(e: unknown): e is StorageWriteError {
  return e instanceof Error && e.name === 'StorageWriteError' && typeof (e as StorageWriteError).diskFull === 'boolean';
}
