/** The fee module wired to the REAL token module over one harness state (no mocks). */
import type { GenesisConfig } from '../../../../src/config/genesis-config.js';
import { FeeModule } from '../../../../src/modules/fee/index.js';
import { supplyStore, TokenModule, userKey, userStore, type UserAccount } from '../../../../src/modules/token/index.js';
import { ModuleHarness, testGenesisConfig, type makeHeader } from '../../../support/module-harness.js';

export interface FeeSetup {
  fee: FeeModule;
  token: TokenModule;
  harness: ModuleHarness;
  tokenID: Buffer;
}

export function setupFee(
  options: { feeConfig?: Record<string, unknown>; chainID?: Buffer; header?: Parameters<typeof makeHeader>[0]; totalSupply?: bigint } = {},
): FeeSetup {
  const genesisConfig: GenesisConfig = { ...testGenesisConfig, chainID: options.chainID ?? testGenesisConfig.chainID };
  const token = new TokenModule();
  const fee = new FeeModule({ token: token.method });
  token.addDependencies({ fee: fee.method });
  token.init({ genesisConfig, moduleConfig: {} });
  fee.init({ genesisConfig, moduleConfig: options.feeConfig ?? {} });
  const harness = new ModuleHarness({ header: { height: 10, ...options.header } });
  const tokenID = fee.method.getFeeTokenID();
  supplyStore.set(harness.state, tokenID, { totalSupply: options.totalSupply ?? 10n ** 12n });
  return { fee, token, harness, tokenID };
}

/** Gives `address` an account of `tokenID` with this available balance (and locks). */
export function fund(setup: FeeSetup, address: Buffer, availableBalance: bigint, lockedBalances: UserAccount['lockedBalances'] = []): void {
  userStore.set(setup.harness.state, userKey(address, setup.tokenID), { availableBalance, lockedBalances });
}

export function account(setup: FeeSetup, address: Buffer): UserAccount | undefined {
  return userStore.get(setup.harness.state, userKey(address, setup.tokenID));
}

export function totalSupply(setup: FeeSetup): bigint | undefined {
  return supplyStore.get(setup.harness.state, setup.tokenID)?.totalSupply;
}
