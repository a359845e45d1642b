// Where the command line takes a store's encryption key from: the
// LANTERN_ENCRYPTION_KEY environment variable or a file (--key-file), never
// an argument (the process list and shell history keep those). The key is a
// passphrase, as `Lantern.open({ encryptionKey: 'text' })` takes it, or a raw
// 16- or 32-byte key written `base64:...` (a key given in-process as bytes).

export const ENCRYPTION_KEY_VARIABLE = 'LANTERN_ENCRYPTION_KEY';

/** A key that cannot be used as given: the message is one line for the operator. */
export class KeySourceError extends Error {
  override name = 'KeySourceError';
}

/**
 * The key from `--key-file` (`file`, read with `readFile`) or the
 * environment; undefined when neither gives one. A file's one trailing line
 * break is not part of the key (editors add one).
 */
export function encryptionKeyFrom(file: string | undefined, env: NodeJS.ProcessEnv, readFile: (path: string) => string): string | Uint8Array | undefined {
  if (file !== undefined && env[ENCRYPTION_KEY_VARIABLE] !== undefined) {
    throw new KeySourceError(`both --key-file and ${ENCRYPTION_KEY_VARIABLE} give a key: keep one`);
  }
  let text: string;
  if (file !== undefined) {
    try {
      text = readFile(file).replace(/\r?\n$/, '');
    } catch (e) {
      throw new KeySourceError(`cannot read the key file ${file}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (text === '') throw new KeySourceError(`the key file ${file} is empty: it holds the store's passphrase (or base64:KEY)`);
  } else {
    const value = env[ENCRYPTION_KEY_VARIABLE];
    if (value === undefined) return undefined;
    if (value === '') throw new KeySourceError(`${ENCRYPTION_KEY_VARIABLE} is set but empty: set it to the store's passphrase (or base64:KEY), or unset it`);
    text = value;
  }
  return text.startsWith('base64:') ? rawKey(text.slice('base64:'.length)) : text;
}

function rawKey(base64: string): Uint8Array {
  const bytes = Uint8Array.from(Buffer.from(base64, 'base64'));
  if (bytes.length !== 16 && bytes.length !== 32) {
    throw new KeySourceError(`a base64: key decodes to ${bytes.length} bytes: a raw key has 16 or 32 (a passphrase is given without base64:)`);
  }
  return bytes;
}
