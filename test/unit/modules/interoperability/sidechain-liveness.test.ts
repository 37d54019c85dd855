/**
 * Liveness and active channels on a sidechain (lisk-sdk sidechain/internal_method.ts isLive and
 * sidechain/method.ts isChannelActive): the mainchain certifies liveness, so only termination
 * counts, and a chain without its own account is reached through the mainchain's channel.
 */
import { describe, expect, it } from 'vitest';
import { ChainStatus, EMPTY_BYTES, EMPTY_HASH } from '../../../../src/modules/interoperability/constants.js';
import { isLive } from '../../../../src/modules/interoperability/liveness.js';
import { SidechainInteroperabilityMethod } from '../../../../src/modules/interoperability/sidechain/method.js';
import { chainAccountStore, ownChainAccountStore, terminatedStateStore } from '../../../../src/modules/interoperability/stores.js';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { ModuleHarness } from '../../../support/module-harness.js';

const OWN = Buffer.from('04000001', 'hex');
const MAINCHAIN = Buffer.from('04000000', 'hex');
const OTHER = Buffer.from('04000002', 'hex');
const LONG_AGO = 1_000;
const NOW = LONG_AGO + 10 * 2_419_200;

function sidechainState(mainchainStatus: number): ModuleHarness {
  const harness = new ModuleHarness();
  ownChainAccountStore.set(harness.state, EMPTY_BYTES, { name: 'sidechain_one', chainID: OWN, nonce: 1n });
  chainAccountStore.set(harness.state, MAINCHAIN, {
    name: 'lisk_mainchain',
    lastCertificate: { height: 1, timestamp: LONG_AGO, stateRoot: EMPTY_HASH, validatorsHash: EMPTY_HASH },
    status: mainchainStatus,
  });
  return harness;
}

const terminate = (harness: ModuleHarness, chainID: Buffer) =>
  terminatedStateStore.set(harness.state, chainID, { stateRoot: EMPTY_HASH, mainchainStateRoot: EMPTY_HASH, initialized: true });

describe('liveness on a sidechain', () => {
  it('ignores the age of the last certificate and chains without an account', () => {
    const harness = sidechainState(ChainStatus.ACTIVE);
    expect(isLive(harness, MAINCHAIN, NOW)).toBe(true);
    expect(isLive(harness, OTHER, NOW)).toBe(true);
    expect(isLive(harness, OWN, NOW)).toBe(true);
  });

  it('is lost by termination only', () => {
    const harness = sidechainState(ChainStatus.TERMINATED);
    expect(isLive(harness, MAINCHAIN, NOW)).toBe(false);
    terminate(harness, OTHER);
    expect(isLive(harness, OTHER, NOW)).toBe(false);
  });
});

describe('active channels on a sidechain', () => {
  const method = new SidechainInteroperabilityMethod(() => new TokenModule().method);

  it('follows the mainchain channel for chains without their own account', () => {
    const registered = sidechainState(ChainStatus.REGISTERED);
    expect(method.isChannelActive(registered, MAINCHAIN, NOW)).toBe(false);
    expect(method.isChannelActive(registered, OTHER, NOW)).toBe(false);

    const active = sidechainState(ChainStatus.ACTIVE);
    expect(method.isChannelActive(active, MAINCHAIN, NOW)).toBe(true);
    expect(method.isChannelActive(active, OTHER, NOW)).toBe(true);
    terminate(active, OTHER);
    expect(method.isChannelActive(active, OTHER, NOW)).toBe(false);
  });

  it('never counts the own chain', () => {
    expect(method.isChannelActive(sidechainState(ChainStatus.ACTIVE), OWN, NOW)).toBe(false);
  });
});
