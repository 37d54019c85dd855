/**
 * submitSidechainCrossChainUpdate on the real lisk-sdk 6.1 interop sidechain, over its tip state
 * (test/fixtures/chains/interop-dev/sidechain/final_state_kv.json). The relayer's CCUs of heights
 * 236..239 re-include a message the sidechain already received, so lisk-sdk failed each of them
 * at the outbox root proof, leaving no interoperability event; the last successful CCU (235) set
 * the last certificate, so none of them changed the interoperability state the tip shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Block } from '../../../../src/chain/block.js';
import { codec } from '../../../../src/codec/index.js';
import { loadChainConfig } from '../../../../src/config/lisk-config.js';
import { type CommandExecuteContext, type CommandVerifyContext, VerifyStatus } from '../../../../src/modules/base/index.js';
import {
  CrossChainRegistry,
  type CrossChainUpdateParams,
  crossChainUpdateParamsSchema,
  InteroperabilityInternalMethod,
  InteroperabilityMethod,
  LIVENESS_LIMIT,
  SubmitSidechainCrossChainUpdateCommand,
  sidechainOwnCrossChainCommands,
} from '../../../../src/modules/interoperability/index.js';
import { createMainchainModules } from '../../../../src/modules/mainchain.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { fixturePath } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';

const DIR = fixturePath('chains/interop-dev/sidechain');
const SIDECHAIN_ID = Buffer.from('04000001', 'hex');

const tipState = new MemoryState(
  (JSON.parse(readFileSync(join(DIR, 'final_state_kv.json'), 'utf8')) as { entries: [string, string][] }).entries.map(([key, value]) => ({
    key: Buffer.from(key, 'hex'),
    value: Buffer.from(value, 'hex'),
  })),
);

function sidechainBlock(height: number): Block {
  for (const line of readFileSync(join(DIR, 'blocks.ndjson'), 'utf8').split('\n')) {
    if (!line.startsWith(`{"height":${height},`)) continue;
    return Block.fromBytes(Buffer.from((JSON.parse(line) as { blockHex: string }).blockHex, 'hex'));
  }
  throw new Error(`The interop sidechain has no block ${height}.`);
}

/** The sidechain's CCU command wired as lisk-sdk's sidechain application wires it: token, then fee. */
function sidechainCommand(): SubmitSidechainCrossChainUpdateCommand {
  const config = loadChainConfig(join(DIR, 'config.json'));
  const { token, fee } = createMainchainModules({ genesisConfig: config.genesis, moduleConfigs: config.modules });
  const registry = new CrossChainRegistry('interoperability', sidechainOwnCrossChainCommands());
  registry.register(token);
  registry.register(fee);
  const tokenMethod = () => token.method;
  return new SubmitSidechainCrossChainUpdateCommand({
    registry,
    internal: new InteroperabilityInternalMethod(tokenMethod),
    method: new InteroperabilityMethod(tokenMethod),
    token: tokenMethod,
  });
}

function ccu(height: number, header: { timestamp?: number } = {}) {
  const block = sidechainBlock(height);
  const transaction = block.transactions.find((tx) => tx.command === 'submitSidechainCrossChainUpdate');
  if (transaction === undefined) throw new Error(`Block ${height} carries no CCU.`);
  const params = codec.decode<CrossChainUpdateParams>(crossChainUpdateParamsSchema, transaction.params);
  const harness = new ModuleHarness({ base: tipState, header: { ...block.header, ...header } });
  // The harness speaks for the dev mainchain; this is the sidechain.
  const verifyContext: CommandVerifyContext<CrossChainUpdateParams> = {
    ...harness.commandVerifyContext(transaction, params),
    chainID: SIDECHAIN_ID,
  };
  const executeContext: CommandExecuteContext<CrossChainUpdateParams> = {
    ...harness.commandExecuteContext(transaction, params),
    chainID: SIDECHAIN_ID,
  };
  return { harness, verifyContext, executeContext };
}

describe('submitSidechainCrossChainUpdate on the interop sidechain', () => {
  const command = sidechainCommand();

  it('verifies the CCU of height 239 and fails it at the outbox root proof, leaving no event once rolled back', async () => {
    const { harness, verifyContext, executeContext } = ccu(239);
    expect(command.verify(verifyContext).status).toBe(VerifyStatus.OK);
    const snapshot = harness.events.snapshot();
    await expect(command.execute(executeContext)).rejects.toThrow('Invalid inclusion proof for inbox update.');
    expect(harness.events.events().map((event) => event.name)).toEqual(['invalidSMTVerification']);
    harness.events.restore(snapshot);
    expect(harness.events.events()).toEqual([]);
  });

  it('ignores the certificate age: a sidechain leaves liveness by time to the mainchain', () => {
    const { verifyContext } = ccu(239, { timestamp: 1_795_640_778 + LIVENESS_LIMIT * 2 });
    expect(command.verify(verifyContext).status).toBe(VerifyStatus.OK);
  });

  it('refuses the CCU of height 235 again: its certificate is the last one', () => {
    const { verifyContext } = ccu(235);
    expect(command.verify(verifyContext).error?.message).toBe('Certificate height is not greater than last certificate height.');
  });
});
