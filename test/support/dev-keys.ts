/**
 * The 103 dev validator keys of lisk-sdk's examples/pos-mainchain, which generate the blocks of
 * test/fixtures/chains/dev (its README) — public development keys, never used for value.
 */
import type { GeneratorKeypair } from '../../src/engine/generator/generator-keypair.js';
import { keypairFromPlainKeys } from '../../src/engine/generator/generator-keypair.js';
import { decodeLisk32 } from '../../src/crypto/index.js';
import { loadJsonFixture } from './fixtures.js';

interface DevValidatorEntry {
  address: string;
  plain: { generatorKey: string; generatorPrivateKey: string; blsKey: string; blsPrivateKey: string };
}

export function devValidatorKeypairs(): GeneratorKeypair[] {
  const { keys } = loadJsonFixture<{ keys: DevValidatorEntry[] }>('genesis/pos-mainchain-default/dev-validators.json');
  return keys.map((entry) =>
    keypairFromPlainKeys(decodeLisk32(entry.address), {
      generatorKey: Buffer.from(entry.plain.generatorKey, 'hex'),
      generatorPrivateKey: Buffer.from(entry.plain.generatorPrivateKey, 'hex'),
      blsKey: Buffer.from(entry.plain.blsKey, 'hex'),
      blsPrivateKey: Buffer.from(entry.plain.blsPrivateKey, 'hex'),
    }),
  );
}
