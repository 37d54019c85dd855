/**
 * `legacy:registerKeys` (lisk-core legacy/commands/register_keys.ts and its
 * test/application/modules/legacy/commands/register_keys.spec.ts) on a
 * migrated-style devnet genesis (validators registered without BLS keys and banned), with the
 * REAL validators, pos and token modules, the devnet validators' real keys and proofs of
 * possession from dev-validators.json.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../../src/chain/transaction.js';
import { codec } from '../../../../src/codec/index.js';
import { decodeLisk32 } from '../../../../src/crypto/lisk32.js';
import { ValidationError } from '../../../../src/errors.js';
import { TransactionExecutionResult } from '../../../../src/engine/state-machine/state-machine.js';
import { VerifyStatus, type ExecutionHeader } from '../../../../src/modules/base/index.js';
import {
  INVALID_BLS_KEY,
  registerKeysParamsSchema,
  type RegisterKeysCommand,
  type RegisterKeysParams,
} from '../../../../src/modules/legacy/index.js';
import { validatorStore } from '../../../../src/modules/pos/index.js';
import { blsKeysStore, validatorKeysStore } from '../../../../src/modules/validators/index.js';
import type { ModuleHarness } from '../../../support/module-harness.js';
import {
  commandTransaction,
  devValidators,
  eventViews,
  harnessAfter,
  migratedDevnetGenesis,
  PERMANENTLY_BANNED_VALIDATOR_INDEX,
  runTransaction,
  signedTransaction,
  UNBANNED_VALIDATOR_INDEX,
  type DevValidatorKeys,
  type GenesisOutcome,
  type LegacyWorld,
} from './legacy-test-kit.js';

const validators = devValidators();
const hex = (value: string): Buffer => Buffer.from(value, 'hex');

function paramsOf(keys: DevValidatorKeys, overrides: Partial<RegisterKeysParams> = {}): RegisterKeysParams {
  return {
    blsKey: hex(keys.plain.blsKey),
    proofOfPossession: hex(keys.plain.blsProofOfPossession),
    generatorKey: hex(keys.plain.generatorKey),
    ...overrides,
  };
}

function transactionOf(sender: DevValidatorKeys, params: RegisterKeysParams): Transaction {
  return commandTransaction('registerKeys', hex(sender.publicKey), codec.encode(registerKeysParamsSchema, params));
}

describe('legacy registerKeys', () => {
  let world: LegacyWorld;
  let genesis: GenesisOutcome;
  let genesisHeader: ExecutionHeader;
  let command: RegisterKeysCommand;

  beforeAll(async () => {
    ({ world, genesis, header: genesisHeader } = await migratedDevnetGenesis());
    command = world.legacy.commands.find((entry) => entry.name === 'registerKeys') as unknown as RegisterKeysCommand;
  });

  const freshBlock = (): ModuleHarness => harnessAfter(genesis.state, genesisHeader);

  const verify = (harness: ModuleHarness, sender: DevValidatorKeys, params: RegisterKeysParams) => {
    const tx = transactionOf(sender, params);
    return command.verify(harness.commandVerifyContext(tx, params));
  };

  const execute = (harness: ModuleHarness, sender: DevValidatorKeys, params: RegisterKeysParams): Transaction => {
    const tx = transactionOf(sender, params);
    void command.execute(harness.commandExecuteContext(tx, params));
    return tx;
  };

  it('the migrated genesis leaves every validator with the all-zero BLS key', () => {
    const harness = freshBlock();
    for (const index of [0, UNBANNED_VALIDATOR_INDEX, PERMANENTLY_BANNED_VALIDATOR_INDEX]) {
      const keys = world.modules.validators.method.getValidatorKeys(harness, decodeLisk32(validators[index]!.address));
      expect(keys.blsKey.equals(INVALID_BLS_KEY)).toBe(true);
    }
  });

  describe('verify', () => {
    it('accepts a validator whose BLS key is still all zeros', () => {
      expect(verify(freshBlock(), validators[0]!, paramsOf(validators[0]!))).toEqual({ status: VerifyStatus.OK });
    });

    it('does not check the proof of possession (execution does)', () => {
      const params = paramsOf(validators[0]!, { proofOfPossession: Buffer.alloc(96, 1) });
      expect(verify(freshBlock(), validators[0]!, params)?.status).toBe(VerifyStatus.OK);
    });

    it('fails for a sender that is no validator', () => {
      // The legacy key of the first account of lisk-core's test/config/known_legacy_accounts_devnet.json.
      const stranger = { ...validators[0]!, publicKey: '86cbecb2a176934e454f63e7ffa05783be6960d90002c5558dfd31397cd8f020' };
      const result = verify(freshBlock(), stranger, paramsOf(validators[0]!));
      expect(result?.status).toBe(VerifyStatus.FAIL);
      expect(result?.error?.message).toBe('No validator account found for the input address.');
    });

    it('fails for a validator that already has a BLS key', () => {
      const harness = freshBlock();
      execute(harness, validators[0]!, paramsOf(validators[0]!));
      const result = verify(harness, validators[0]!, paramsOf(validators[1]!));
      expect(result?.status).toBe(VerifyStatus.FAIL);
      expect(result?.error?.message).toBe('Validator already has a registered BLS key.');
    });

    it('fails on params outside the schema', () => {
      const cases: RegisterKeysParams[] = [
        paramsOf(validators[0]!, { blsKey: Buffer.alloc(47, 1) }),
        paramsOf(validators[0]!, { proofOfPossession: Buffer.alloc(95, 1) }),
        paramsOf(validators[0]!, { generatorKey: Buffer.alloc(33, 1) }),
      ];
      for (const params of cases) {
        const result = verify(freshBlock(), validators[0]!, params);
        expect(result?.status).toBe(VerifyStatus.FAIL);
        expect(result?.error).toBeInstanceOf(ValidationError);
      }
    });
  });

  describe('execute', () => {
    it('sets both keys, emits generatorKeyRegistration, blsKeyRegistration, keysRegistered, and unbans', () => {
      const harness = freshBlock();
      const sender = validators[0]!;
      const params = paramsOf(sender);
      const address = decodeLisk32(sender.address);
      const tx = execute(harness, sender, params);

      expect(validatorKeysStore.get(harness.state, address)).toEqual({ generatorKey: params.generatorKey, blsKey: params.blsKey });
      expect(blsKeysStore.get(harness.state, params.blsKey)).toEqual({ address });
      expect(validatorStore.get(harness.state, address)?.isBanned).toBe(false);

      const txTopic = `04${tx.id.toString('hex')}`;
      const addressHex = address.toString('hex');
      expect(eventViews(harness.events.events())).toEqual([
        {
          module: 'validators',
          name: 'generatorKeyRegistration',
          data: `0a20${sender.plain.generatorKey}1000`,
          topics: [txTopic, addressHex],
        },
        {
          module: 'validators',
          name: 'blsKeyRegistration',
          data: `0a30${sender.plain.blsKey}1260${sender.plain.blsProofOfPossession}1800`,
          topics: [txTopic, addressHex],
        },
        {
          // keysRegistered {address #1, generatorKey #2, blsKey #3}, topics [address, generatorKey, blsKey].
          module: 'legacy',
          name: 'keysRegistered',
          data: `0a14${addressHex}1220${sender.plain.generatorKey}1a30${sender.plain.blsKey}`,
          topics: [txTopic, addressHex, sender.plain.generatorKey, sender.plain.blsKey],
        },
      ]);
    });

    it('throws for a validator that is not banned (lisk-sdk PoSMethod.unbanValidator)', () => {
      const sender = validators[UNBANNED_VALIDATOR_INDEX]!;
      expect(() => execute(freshBlock(), sender, paramsOf(sender))).toThrow('The specified validator is not banned.');
    });

    it('throws for a validator banned for good (5 misbehavior reports)', () => {
      const sender = validators[PERMANENTLY_BANNED_VALIDATOR_INDEX]!;
      expect(() => execute(freshBlock(), sender, paramsOf(sender))).toThrow(
        'Validator exceeded the maximum allowed number of misbehaviors and is permanently banned.',
      );
    });

    it('throws on a proof of possession that does not match the key', () => {
      const params = paramsOf(validators[0]!, { proofOfPossession: hex(validators[1]!.plain.blsProofOfPossession) });
      expect(() => execute(freshBlock(), validators[0]!, params)).toThrow('Invalid proof of possession for the given BLS key.');
    });

    it('throws on a BLS key another validator registered', () => {
      const harness = freshBlock();
      execute(harness, validators[0]!, paramsOf(validators[0]!));
      const stolen = paramsOf(validators[1]!, {
        blsKey: hex(validators[0]!.plain.blsKey),
        proofOfPossession: hex(validators[0]!.plain.blsProofOfPossession),
      });
      expect(() => execute(harness, validators[1]!, stolen)).toThrow(
        `The BLS key ${validators[0]!.plain.blsKey} has already been registered in the chain.`,
      );
    });
  });

  describe('through the state machine (signed transactions, auth and fee hooks)', () => {
    function signed(sender: DevValidatorKeys, params: RegisterKeysParams, nonce = 0n): Transaction {
      return signedTransaction({
        module: 'legacy',
        command: 'registerKeys',
        params: codec.encode(registerKeysParamsSchema, params),
        nonce,
        publicKey: hex(sender.publicKey),
        privateKey: hex(sender.privateKey),
      });
    }

    it('succeeds for a banned migrated validator, which is then unbanned', async () => {
      const harness = freshBlock();
      const sender = validators[3]!;
      const address = decodeLisk32(sender.address);
      const run = await runTransaction(world, harness, signed(sender, paramsOf(sender)));
      expect(run.verify.status).toBe(VerifyStatus.OK);
      expect(run.result).toBe(TransactionExecutionResult.OK);
      expect(validatorStore.get(harness.state, address)?.isBanned).toBe(false);
      expect(validatorKeysStore.get(harness.state, address)?.blsKey.toString('hex')).toBe(sender.plain.blsKey);
      const names = harness.events.events().map((event) => `${event.module}:${event.name}`);
      expect(names.filter((name) => name.startsWith('legacy:') || name.startsWith('validators:'))).toEqual([
        'validators:generatorKeyRegistration',
        'validators:blsKeyRegistration',
        'legacy:keysRegistered',
        'legacy:commandExecutionResult',
      ]);
      expect(harness.events.events().at(-1)?.data.toString('hex')).toBe('0801');

      // A second registration by the same validator is refused at verification.
      const again = await runTransaction(world, harness, signed(sender, paramsOf(validators[4]!), 1n));
      expect(again.verify.status).toBe(VerifyStatus.FAIL);
      expect(again.verify.error?.message).toBe('Validator already has a registered BLS key.');
    });

    it('a failing unban undoes the key registration and its events; the transaction fails', async () => {
      const harness = freshBlock();
      const sender = validators[UNBANNED_VALIDATOR_INDEX]!;
      const address = decodeLisk32(sender.address);
      const run = await runTransaction(world, harness, signed(sender, paramsOf(sender)));
      expect(run.verify.status).toBe(VerifyStatus.OK);
      expect(run.result).toBe(TransactionExecutionResult.FAIL);
      expect(validatorKeysStore.get(harness.state, address)?.blsKey.equals(INVALID_BLS_KEY)).toBe(true);
      expect(blsKeysStore.has(harness.state, hex(sender.plain.blsKey))).toBe(false);
      const names = harness.events.events().map((event) => `${event.module}:${event.name}`);
      expect(names.some((name) => name === 'legacy:keysRegistered' || name.startsWith('validators:'))).toBe(false);
      expect(harness.events.events().at(-1)?.data.toString('hex')).toBe('0800');
    });

    it('a bad proof of possession keeps only the non-revertible blsKeyRegistration failure event', async () => {
      const harness = freshBlock();
      const sender = validators[5]!;
      const params = paramsOf(sender, { proofOfPossession: hex(validators[6]!.plain.blsProofOfPossession) });
      const run = await runTransaction(world, harness, signed(sender, params));
      expect(run.result).toBe(TransactionExecutionResult.FAIL);
      const kept = harness.events.events().filter((event) => event.module === 'validators' || event.name === 'keysRegistered');
      // blsKeyRegistration with result 4 (INVALID_POP), noRevert in lisk-sdk; generatorKeyRegistration (success) is reverted.
      expect(eventViews(kept).map((event) => [event.name, event.data.slice(-4)])).toEqual([['blsKeyRegistration', '1804']]);
    });
  });
});
