import { NotFoundError } from '../../errors.js';
import type { SmtNodeStore } from './types.js';

/** The stored node for `hash`; a missing node means the store does not hold this tree. */
export function loadNode(store: SmtNodeStore, hash: Buffer): Buffer {
  const data = store.get(hash);
  if (data === undefined) throw new NotFoundError(`SMT node ${hash.toString('hex')} is not in the node store.`);
  return data;
}
