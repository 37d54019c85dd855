import { encodeLisk32Address } from '../../codec/index.js';
import type { StateReader } from '../../state/state-view.js';
import type { Bft } from '../../engine/consensus/bft/bft.js';

/** The BFT operations the generator list needs (Bft provides them). */
export type GeneratorListBft = Pick<Bft, 'getParameters' | 'slotNumber' | 'slotTime'>;

export interface GeneratorListJSON {
  list: { address: string; nextAllocatedTime: number }[];
}

/**
 * `chain_getGeneratorList` (docs/protocol/bft.md): the validators of the parameters in
 * force at the next height, rotated so that the list starts with the owner of the current slot,
 * each with the start time of its next slot (one blockTime apart).
 *
 * `lastBftHeight` is the height of the newest block BFT has counted (lisk-sdk reads
 * blockBFTInfos[0]): the tip, or 0 while only the genesis block exists.
 */
export function generatorList(
  bft: GeneratorListBft,
  engineState: StateReader,
  lastBftHeight: number,
  nowSeconds: number,
): GeneratorListJSON {
  const { validators } = bft.getParameters(engineState, lastBftHeight + 1);
  const count = validators.length;
  if (count === 0) return { list: [] };
  const slot = bft.slotNumber(nowSeconds);
  const first = slot % count;
  const list: GeneratorListJSON['list'] = new Array(count);
  for (let k = 0; k < count; k += 1) {
    const validator = validators[(first + k) % count] as { address: Buffer };
    list[k] = { address: encodeLisk32Address(validator.address), nextAllocatedTime: bft.slotTime(slot + k) };
  }
  return { list };
}
