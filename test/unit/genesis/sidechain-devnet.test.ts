/**
 * Basalt's sidechain devnet (config/devnet-sidechain/): every generated file regenerates byte for
 * byte from src/genesis/devnet/sidechain-devnet.ts and config.json, and its genesis block opens a
 * sidechain (chain 04000001) whose validators have their BLS keys from genesis and which is not
 * yet registered on the mainchain.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { PRESETS_DIR } from '../../../src/config/presets.js';
import { resolveNodeConfig } from '../../../src/config/resolve-node-config.js';
import { decodeLisk32, encodeLisk32 } from '../../../src/crypto/index.js';
import { ValidationError } from '../../../src/errors.js';
import {
  buildSidechainDevnetFiles,
  deriveSidechainDevnetKeys,
  SIDECHAIN_DEVNET_SPEC,
} from '../../../src/genesis/devnet/sidechain-devnet.js';
import type { DevnetFiles } from '../../../src/genesis/devnet/write-devnet-files.js';
import { EMPTY_BYTES, ownChainAccountStore } from '../../../src/modules/interoperability/index.js';
import { SidechainInteroperabilityModule } from '../../../src/modules/interoperability/sidechain/index.js';
import { validatorStore } from '../../../src/modules/pos/index.js';
import { openChain } from '../../../src/node.js';

const DIR = join(PRESETS_DIR, 'devnet-sidechain');
const shipped = (name: string): Buffer => readFileSync(join(DIR, name));

describe('sidechain devnet genesis', () => {
  let files: DevnetFiles;
  const workDir = mkdtempSync(join(tmpdir(), 'basalt-sidechain-devnet-'));
  const keys = deriveSidechainDevnetKeys(SIDECHAIN_DEVNET_SPEC);

  beforeAll(async () => {
    files = await buildSidechainDevnetFiles(join(DIR, 'config.json'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('regenerates every shipped file byte for byte', () => {
    expect([...files.keys()].sort()).toEqual(['DEV_PASSPHRASES.md', 'dev-validators.json', 'genesis_assets.json', 'genesis_block.blob']);
    for (const [name, content] of files) {
      expect(content.equals(shipped(name)), `config/devnet-sidechain/${name} differs from its regeneration`).toBe(true);
    }
  });

  it('refuses a config.json that is not a keyed sidechain of the devnet network', async () => {
    const config = JSON.parse(shipped('config.json').toString('utf8')) as {
      genesis: Record<string, unknown>;
      modules: { pos: Record<string, unknown> };
    };
    config.genesis.chainID = '04000000';
    config.modules.pos.useInvalidBLSKey = true;
    const file = join(workDir, 'bad-config.json');
    writeFileSync(file, JSON.stringify(config));
    await expect(buildSidechainDevnetFiles(file)).rejects.toBeInstanceOf(ValidationError);
    await expect(buildSidechainDevnetFiles(file)).rejects.toThrow(
      '.genesis.chainID: must be a sidechain of the devnet network (04xxxxxx, not 04000000); .modules.pos.useInvalidBLSKey: must be false',
    );
  });

  it('opens a sidechain: keyed init validators with BFT weight, no own chain account before registration', async () => {
    const dataPath = join(workDir, 'node');
    const plan = resolveNodeConfig({ dataPath, network: 'devnet-sidechain' });
    const genesis = Block.fromBytes(shipped('genesis_block.blob'));
    expect(plan.genesisBlock.header.id.equals(genesis.header.id)).toBe(true);
    expect(genesis.assets.all().map((asset) => asset.module)).toEqual(['interoperability', 'pos', 'token']);
    const chain = await openChain({ dataPath, config: plan.chainConfig, genesisBlock: plan.genesisBlock });
    try {
      expect(chain.stateDb.root().equals(genesis.header.stateRoot)).toBe(true);
      expect(chain.modules.interoperability).toBeInstanceOf(SidechainInteroperabilityModule);
      expect(chain.modules.legacy).toBeUndefined();
      expect(ownChainAccountStore.has(chain.stateDb.moduleReader, EMPTY_BYTES)).toBe(false);

      const { validators, certificateThreshold } = chain.bft.getParameters(chain.stateDb.engineReader, 1);
      expect(certificateThreshold).toBe(3n);
      const initValidators = keys.validators.slice(0, SIDECHAIN_DEVNET_SPEC.activeValidators);
      expect(validators.map((validator) => encodeLisk32(validator.address)).sort()).toEqual(
        initValidators.map((key) => key.address).sort(),
      );
      for (const validator of validators) {
        const key = initValidators.find((candidate) => candidate.address === encodeLisk32(validator.address));
        expect(validator.blsKey).toEqual(key?.blsKey);
        expect(validator.bftWeight).toBe(1n);
      }
      const read = { state: chain.stateDb.moduleReader };
      for (const key of keys.validators) {
        const address = decodeLisk32(key.address);
        expect(validatorStore.get(chain.stateDb.moduleReader, address)?.isBanned).toBe(false);
        expect(chain.modules.validators.method.getValidatorKeys(read, address).blsKey).toEqual(key.blsKey);
      }
    } finally {
      await chain.close();
    }
  });
});
