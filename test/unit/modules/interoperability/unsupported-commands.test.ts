/**
 * The mainchain commands Basalt does not implement yet keep lisk-sdk's names, order and params
 * schemas (metadata, decoding) but are refused at verification and fail if executed.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { VerifyStatus, type VerificationResult } from '../../../../src/modules/base/index.js';
import { fakeTransaction, setupAfterDevGenesis } from './setup.js';

const UNSUPPORTED: string[] = [];

describe('interoperability commands not supported yet', () => {
  const { interoperability, harness } = setupAfterDevGenesis();

  it('are registered in lisk-sdk order around registerSidechain', () => {
    expect(interoperability.commands.map((command) => command.name)).toEqual([
      'submitMainchainCrossChainUpdate',
      'initializeMessageRecovery',
      'recoverMessage',
      'registerSidechain',
      'recoverState',
      'terminateSidechainForLiveness',
    ]);
  });

  it.each(UNSUPPORTED)('%s fails verification and execution with a clear error', (name) => {
    const command = interoperability.commands.find((candidate) => candidate.name === name)!;
    const message = `The interoperability command ${name} is not supported yet by this node.`;
    const transaction = fakeTransaction(10n ** 9n, name);
    const result = command.verify!(harness.commandVerifyContext(transaction, {})) as VerificationResult;
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(message);
    expect(() => command.execute(harness.commandExecuteContext(transaction, {}))).toThrow(message);
    expect(harness.state.changes()).toEqual([]);
  });

  it('decode their params with lisk-sdk schemas', () => {
    const terminate = interoperability.commands.find((command) => command.name === 'terminateSidechainForLiveness')!;
    expect(codec.decode(terminate.schema, Buffer.from('0a0404000001', 'hex'))).toEqual({
      chainID: Buffer.from('04000001', 'hex'),
    });
  });
});
