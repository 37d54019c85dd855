import { InvalidParamsError } from '../../errors.js';
import { nativeAddon } from '../../native/addon.js';
import { freshSmtRoot as freshSmtRootTs } from '../smt/fresh-root.js';

/**
 * Root of an SMT built from nothing with these entries (see src/merkle/smt/fresh-root.ts for the
 * contract), in the addon when it is loaded (native/src/fresh_smt.rs). Every key must be
 * `keyLength` bytes long; the caller checks that with its own error.
 */
export function freshSmtRoot(keys: readonly Uint8Array[], values: readonly Uint8Array[], keyLength: number): Buffer {
  if (keys.length !== values.length) {
    throw new InvalidParamsError(`SMT update needs one value per key (${keys.length} keys, ${values.length} values).`);
  }
  if (nativeAddon === undefined) return freshSmtRootTs(keys, values);
  const count = keys.length;
  const flatKeys = Buffer.allocUnsafe(count * keyLength);
  const valueEnds = new Uint32Array(count);
  let valueBytes = 0;
  for (let i = 0; i < count; i += 1) {
    flatKeys.set(keys[i] as Uint8Array, i * keyLength);
    valueBytes += (values[i] as Uint8Array).length;
    valueEnds[i] = valueBytes;
  }
  const flatValues = Buffer.allocUnsafe(valueBytes);
  for (let i = 0; i < count; i += 1) flatValues.set(values[i] as Uint8Array, i === 0 ? 0 : valueEnds[i - 1]);
  return nativeAddon.smtRootOf(flatKeys, keyLength, flatValues, valueEnds);
}
