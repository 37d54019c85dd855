/** The mainchain interoperability commands keep lisk-sdk's names, order and params schemas (metadata, decoding). */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { setupAfterDevGenesis } from './setup.js';

describe('mainchain interoperability commands', () => {
  const { interoperability } = setupAfterDevGenesis();

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

  it('decode their params with lisk-sdk schemas', () => {
    const terminate = interoperability.commands.find((command) => command.name === 'terminateSidechainForLiveness')!;
    expect(codec.decode(terminate.schema, Buffer.from('0a0404000001', 'hex'))).toEqual({
      chainID: Buffer.from('04000001', 'hex'),
    });
  });
});
