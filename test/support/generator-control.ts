/**
 * The engine's generator controls for endpoint tests: a real generator store, a Forger switch
 * that is just a map of the enabled keypairs, a chain store the test fakes, 10-second slots.
 */
import type { GeneratorControlOptions } from '../../src/engine/generator/generator-control.js';
import { GeneratorControl } from '../../src/engine/generator/generator-control.js';
import type { GeneratorKeypair } from '../../src/engine/generator/generator-keypair.js';
import type { GeneratorStore } from '../../src/engine/generator/generator-store.js';
import { silentLogger } from '../../src/logger.js';

/** `enabled` maps the hex address of every validator the fake Forger generates for to its keypair. */
export function generatorControlFor(
  store: GeneratorStore,
  enabled: Map<string, GeneratorKeypair>,
  chainStore: GeneratorControlOptions['chainStore'],
  syncing?: () => boolean,
): GeneratorControl {
  return new GeneratorControl({
    store,
    forger: {
      enable: (keypair) => enabled.set(keypair.address.toString('hex'), keypair),
      disable: (address) => enabled.delete(address.toString('hex')),
      enabledKeypair: (address) => enabled.get(address.toString('hex')),
    },
    chainStore,
    blockTime: 10,
    syncing,
    logger: silentLogger,
  });
}
