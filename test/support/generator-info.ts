/**
 * What an operator moving validators to a node does first (generator:enable with the values of
 * their last blocks): each generator's info set from the last block it made on the chain, so that
 * its next header does not contradict the chain. Tests and benches that forge on a replayed chain
 * start here.
 */
import type { ChainStore } from '../../src/chain/chain-store.js';
import type { GeneratorStore } from '../../src/engine/generator/generator-store.js';

export function adoptGeneratorInfoOfChain(chainStore: ChainStore, generatorStore: GeneratorStore): void {
  for (let height = 1; height <= chainStore.tipHeight(); height += 1) {
    const header = chainStore.getHeaderByHeight(height);
    if (!header) continue;
    const { maxHeightGenerated, maxHeightPrevoted } = header;
    generatorStore.setInfo(header.generatorAddress, { height, maxHeightGenerated, maxHeightPrevoted });
  }
}
