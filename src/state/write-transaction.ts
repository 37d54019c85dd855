import type { RootDatabase } from 'lmdb';
import { StoreWriteError } from '../errors.js';

/**
 * Runs `write` in one synchronous LMDB write transaction. An error thrown by `write` itself
 * passes through as it is; a failure of the commit that follows (no space left, a file size
 * limit, an I/O error: lmdb-js reports them all as an I/O error) becomes a StoreWriteError, so
 * that a node can tell "this store takes no more writes" from a bug or a refused block.
 */
export function writeTransaction<T>(env: RootDatabase, write: () => T): T {
  let written = false;
  try {
    return env.transactionSync(() => {
      const result = write();
      written = true;
      return result;
    });
  } catch (error) {
    if (written) throw new StoreWriteError(error);
    throw error;
  }
}
