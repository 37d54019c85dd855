/**
 * ValidatorsMethod against lisk-sdk v6.1 framework/src/modules/validators/method.ts and LIP 0044:
 * check order, events (names, exact data bytes, topics, revert behaviour) and state.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { FormatError, NotFoundError, ValidationError } from '../../../../src/errors.js';
import type { MethodContext } from '../../../../src/modules/base/index.js';
import {
  blsKeysStore,
  INVALID_BLS_KEY,
  KeyRegResult,
  validatorKeysStore,
  ValidatorsModule,
  validatorsParamsStore,
} from '../../../../src/modules/validators/index.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { blsEventData, generatorEventData, genesisValidators, type GenesisValidatorKeys } from './keys.js';

const [alice, bob, carol] = genesisValidators() as [GenesisValidatorKeys, GenesisValidatorKeys, GenesisValidatorKeys];

function setup(blockTime = testGenesisConfig.blockTime) {
  const module = new ValidatorsModule();
  module.init({ genesisConfig: { ...testGenesisConfig, blockTime }, moduleConfig: {} });
  const harness = new ModuleHarness();
  const ctx = (): MethodContext => ({ state: harness.state, events: harness.events, contextStore: harness.contextStore });
  return { method: module.method, harness, ctx };
}

function eventSummary(harness: ModuleHarness) {
  return harness.events.events().map((event) => ({
    module: event.module,
    name: event.name,
    data: event.data.toString('hex'),
    topics: event.topics.map((topic) => topic.toString('hex')),
  }));
}

function genEvent(v: GenesisValidatorKeys, generatorKey: Buffer, result: number) {
  return {
    module: 'validators',
    name: 'generatorKeyRegistration',
    data: generatorEventData(generatorKey, result).toString('hex'),
    topics: [v.address.toString('hex')],
  };
}

function blsEvent(v: GenesisValidatorKeys, blsKey: Buffer, pop: Buffer, result: number) {
  return {
    module: 'validators',
    name: 'blsKeyRegistration',
    data: blsEventData(blsKey, pop, result).toString('hex'),
    topics: [v.address.toString('hex')],
  };
}

describe('registerValidatorKeys', () => {
  let env: ReturnType<typeof setup>;
  beforeEach(() => {
    env = setup();
  });

  it('stores keys and the BLS index, then emits generatorKeyRegistration and blsKeyRegistration', () => {
    env.method.registerValidatorKeys(env.ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession);
    expect(validatorKeysStore.get(env.harness.state, alice.address)).toEqual({
      generatorKey: alice.generatorKey,
      blsKey: alice.blsKey,
    });
    expect(blsKeysStore.get(env.harness.state, alice.blsKey)).toEqual({ address: alice.address });
    // Raw bytes: validatorKeys = {generatorKey#1, blsKey#2}; blsKeys = {address#1}.
    expect(env.harness.state.get(validatorKeysStore.stateKey(alice.address))).toEqual(
      Buffer.concat([Buffer.from('0a20', 'hex'), alice.generatorKey, Buffer.from('1230', 'hex'), alice.blsKey]),
    );
    expect(env.harness.state.get(blsKeysStore.stateKey(alice.blsKey))).toEqual(Buffer.concat([Buffer.from('0a14', 'hex'), alice.address]));
    expect(eventSummary(env.harness)).toEqual([
      genEvent(alice, alice.generatorKey, KeyRegResult.SUCCESS),
      blsEvent(alice, alice.blsKey, alice.proofOfPossession, KeyRegResult.SUCCESS),
    ]);
  });

  it('refuses an address that is already a validator with ALREADY_VALIDATOR (kept on revert)', () => {
    env.method.registerValidatorKeys(env.ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession);
    const events = env.harness.events.snapshot();
    const state = env.harness.state.snapshot();
    expect(() => env.method.registerValidatorKeys(env.ctx(), alice.address, bob.blsKey, bob.generatorKey, bob.proofOfPossession)).toThrow(
      'This address is already registered as validator.',
    );
    env.harness.state.restore(state);
    env.harness.events.restore(events);
    // The failure event survives the rollback of the command (noRevert), the success events stay.
    expect(eventSummary(env.harness).slice(2)).toEqual([genEvent(alice, bob.generatorKey, KeyRegResult.ALREADY_VALIDATOR)]);
    expect(blsKeysStore.has(env.harness.state, bob.blsKey)).toBe(false);
  });

  it('refuses a BLS key registered by another validator with DUPLICATE_BLS_KEY', () => {
    env.method.registerValidatorKeys(env.ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession);
    expect(() => env.method.registerValidatorKeys(env.ctx(), bob.address, alice.blsKey, bob.generatorKey, alice.proofOfPossession)).toThrow(
      `The BLS key ${alice.blsKey.toString('hex')} has already been registered in the chain.`,
    );
    expect(eventSummary(env.harness).slice(2)).toEqual([
      blsEvent(bob, alice.blsKey, alice.proofOfPossession, KeyRegResult.DUPLICATE_BLS_KEY),
    ]);
    expect(validatorKeysStore.has(env.harness.state, bob.address)).toBe(false);
  });

  it('checks the address before the BLS key: both taken gives ALREADY_VALIDATOR', () => {
    env.method.registerValidatorKeys(env.ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession);
    expect(() =>
      env.method.registerValidatorKeys(env.ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession),
    ).toThrow('already registered as validator');
    expect(env.harness.events.events()[2]?.name).toBe('generatorKeyRegistration');
  });

  it('refuses a proof of possession of another key with INVALID_POP, storing nothing', () => {
    expect(() =>
      env.method.registerValidatorKeys(env.ctx(), alice.address, alice.blsKey, alice.generatorKey, bob.proofOfPossession),
    ).toThrow('Invalid proof of possession for the given BLS key.');
    expect(eventSummary(env.harness)).toEqual([blsEvent(alice, alice.blsKey, bob.proofOfPossession, KeyRegResult.INVALID_POP)]);
    expect(validatorKeysStore.has(env.harness.state, alice.address)).toBe(false);
    expect(blsKeysStore.has(env.harness.state, alice.blsKey)).toBe(false);
  });

  it('refuses the all-zero placeholder BLS key (not a valid point) with INVALID_POP', () => {
    expect(() =>
      env.method.registerValidatorKeys(env.ctx(), alice.address, INVALID_BLS_KEY, alice.generatorKey, alice.proofOfPossession),
    ).toThrow('Invalid proof of possession');
    expect(env.harness.events.events()[0]?.data).toEqual(blsEventData(INVALID_BLS_KEY, alice.proofOfPossession, KeyRegResult.INVALID_POP));
  });

  it('checks lengths first, in the order address, BLS key, proof, without events', () => {
    const { method, ctx, harness } = env;
    expect(() => method.registerValidatorKeys(ctx(), Buffer.alloc(19), Buffer.alloc(47), alice.generatorKey, Buffer.alloc(95))).toThrow(
      new FormatError('Validator address must be 20 bytes long.'),
    );
    expect(() => method.registerValidatorKeys(ctx(), alice.address, Buffer.alloc(47), alice.generatorKey, Buffer.alloc(95))).toThrow(
      new FormatError('BLS public key must be 48 bytes long.'),
    );
    expect(() => method.registerValidatorKeys(ctx(), alice.address, alice.blsKey, alice.generatorKey, Buffer.alloc(95))).toThrow(
      new FormatError('Proof of Possession must be 96 bytes long.'),
    );
    // The generator key is checked by schema validation (lisk-validator) after the lengths.
    expect(() => method.registerValidatorKeys(ctx(), alice.address, alice.blsKey, Buffer.alloc(31), alice.proofOfPossession)).toThrow(
      ValidationError,
    );
    expect(harness.events.events()).toHaveLength(0);
  });
});

describe('registerValidatorWithoutBLSKey', () => {
  it('stores the generator key with the invalid placeholder BLS key and emits only generatorKeyRegistration', () => {
    const { method, ctx, harness } = setup();
    expect(method.registerValidatorWithoutBLSKey(ctx(), alice.address, alice.generatorKey)).toBe(true);
    expect(validatorKeysStore.get(harness.state, alice.address)).toEqual({
      generatorKey: alice.generatorKey,
      blsKey: Buffer.alloc(48),
    });
    // The placeholder is not indexed: any number of validators may share it.
    expect(blsKeysStore.has(harness.state, INVALID_BLS_KEY)).toBe(false);
    expect(method.registerValidatorWithoutBLSKey(ctx(), bob.address, bob.generatorKey)).toBe(true);
    expect(eventSummary(harness)).toEqual([
      genEvent(alice, alice.generatorKey, KeyRegResult.SUCCESS),
      genEvent(bob, bob.generatorKey, KeyRegResult.SUCCESS),
    ]);
  });

  it('refuses an existing validator with ALREADY_VALIDATOR, and bad lengths without events', () => {
    const { method, ctx, harness } = setup();
    method.registerValidatorWithoutBLSKey(ctx(), alice.address, alice.generatorKey);
    expect(() => method.registerValidatorWithoutBLSKey(ctx(), alice.address, bob.generatorKey)).toThrow(
      'This address is already registered as validator.',
    );
    expect(eventSummary(harness)[1]).toEqual(genEvent(alice, bob.generatorKey, KeyRegResult.ALREADY_VALIDATOR));
    expect(() => method.registerValidatorWithoutBLSKey(ctx(), Buffer.alloc(21), bob.generatorKey)).toThrow(
      'Validator address must be 20 bytes long.',
    );
    expect(() => method.registerValidatorWithoutBLSKey(ctx(), bob.address, Buffer.alloc(33))).toThrow(ValidationError);
    expect(harness.events.events()).toHaveLength(2);
  });
});

describe('setValidatorBLSKey', () => {
  it('replaces the placeholder key of a validator registered without one', () => {
    const { method, ctx, harness } = setup();
    method.registerValidatorWithoutBLSKey(ctx(), alice.address, alice.generatorKey);
    expect(method.setValidatorBLSKey(ctx(), alice.address, alice.blsKey, alice.proofOfPossession)).toBe(true);
    expect(validatorKeysStore.get(harness.state, alice.address)).toEqual({
      generatorKey: alice.generatorKey,
      blsKey: alice.blsKey,
    });
    expect(method.getAddressFromBLSKey(ctx(), alice.blsKey)).toEqual({ address: alice.address });
    expect(eventSummary(harness)[1]).toEqual(blsEvent(alice, alice.blsKey, alice.proofOfPossession, KeyRegResult.SUCCESS));
  });

  it('fails with NO_VALIDATOR, DUPLICATE_BLS_KEY and INVALID_POP in that order of checks', () => {
    const { method, ctx, harness } = setup();
    // Unknown address with a taken key still reports NO_VALIDATOR: the address is checked first.
    method.registerValidatorKeys(ctx(), bob.address, bob.blsKey, bob.generatorKey, bob.proofOfPossession);
    expect(() => method.setValidatorBLSKey(ctx(), alice.address, bob.blsKey, bob.proofOfPossession)).toThrow(
      new NotFoundError('This address is not registered as validator. Only validators can register a BLS key.'),
    );
    method.registerValidatorWithoutBLSKey(ctx(), alice.address, alice.generatorKey);
    expect(() => method.setValidatorBLSKey(ctx(), alice.address, bob.blsKey, alice.proofOfPossession)).toThrow(
      `The BLS key ${bob.blsKey.toString('hex')} has already been registered in the chain.`,
    );
    expect(() => method.setValidatorBLSKey(ctx(), alice.address, alice.blsKey, bob.proofOfPossession)).toThrow(
      'Invalid proof of possession for the given BLS key.',
    );
    expect(eventSummary(harness).slice(2)).toEqual([
      blsEvent(alice, bob.blsKey, bob.proofOfPossession, KeyRegResult.NO_VALIDATOR),
      genEvent(alice, alice.generatorKey, KeyRegResult.SUCCESS),
      blsEvent(alice, bob.blsKey, alice.proofOfPossession, KeyRegResult.DUPLICATE_BLS_KEY),
      blsEvent(alice, alice.blsKey, bob.proofOfPossession, KeyRegResult.INVALID_POP),
    ]);
    expect(validatorKeysStore.get(harness.state, alice.address)?.blsKey).toEqual(INVALID_BLS_KEY);
  });
});

describe('setValidatorGeneratorKey', () => {
  it('updates the generator key, keeps the BLS key and emits SUCCESS', () => {
    const { method, ctx, harness } = setup();
    method.registerValidatorKeys(ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession);
    expect(method.setValidatorGeneratorKey(ctx(), alice.address, bob.generatorKey)).toBe(true);
    expect(method.getValidatorKeys(ctx(), alice.address)).toEqual({ generatorKey: bob.generatorKey, blsKey: alice.blsKey });
    expect(eventSummary(harness)[2]).toEqual(genEvent(alice, bob.generatorKey, KeyRegResult.SUCCESS));
    // The same key again is accepted (no uniqueness rule for generator keys).
    method.setValidatorGeneratorKey(ctx(), alice.address, bob.generatorKey);
    expect(harness.events.events()).toHaveLength(4);
  });

  it('fails for a non-validator with NO_VALIDATOR, and on lengths without events', () => {
    const { method, ctx, harness } = setup();
    expect(() => method.setValidatorGeneratorKey(ctx(), alice.address, alice.generatorKey)).toThrow(
      'This address is not registered as validator. Only validators can register a generator key.',
    );
    expect(eventSummary(harness)).toEqual([genEvent(alice, alice.generatorKey, KeyRegResult.NO_VALIDATOR)]);
    expect(harness.events.events()[0]?.topics).toHaveLength(1);
    expect(() => method.setValidatorGeneratorKey(ctx(), alice.address, Buffer.alloc(31))).toThrow(
      new FormatError('Generator key must be 32 bytes long.'),
    );
    expect(harness.events.events()).toHaveLength(1);
  });
});

describe('lookups', () => {
  it('getAddressFromBLSKey, getValidatorKeys and isKeyRegistered', () => {
    const { method, ctx } = setup();
    method.registerValidatorKeys(ctx(), alice.address, alice.blsKey, alice.generatorKey, alice.proofOfPossession);
    expect(method.isKeyRegistered(ctx(), alice.blsKey)).toBe(true);
    expect(method.isKeyRegistered(ctx(), bob.blsKey)).toBe(false);
    expect(method.getAddressFromBLSKey(ctx(), alice.blsKey)).toEqual({ address: alice.address });
    expect(() => method.getAddressFromBLSKey(ctx(), bob.blsKey)).toThrow(
      new NotFoundError(`The BLS key ${bob.blsKey.toString('hex')} has not been registered in the chain.`),
    );
    expect(() => method.getAddressFromBLSKey(ctx(), Buffer.alloc(10))).toThrow('BLS public key must be 48 bytes long.');
    expect(() => method.getValidatorKeys(ctx(), bob.address)).toThrow(
      new NotFoundError('No validator account found for the input address.'),
    );
    expect(() => method.getValidatorKeys(ctx(), Buffer.alloc(32))).toThrow('Validator address must be 20 bytes long.');
  });
});

describe('setValidatorsParams / getValidatorsParams', () => {
  it('completes validators with their keys, stores them and calls the setter with the same list', () => {
    const { method, ctx, harness } = setup();
    for (const v of [alice, bob]) {
      method.registerValidatorKeys(ctx(), v.address, v.blsKey, v.generatorKey, v.proofOfPossession);
    }
    const calls: unknown[][] = [];
    const setter = { setNextValidators: (...args: unknown[]) => void calls.push(args) };
    method.setValidatorsParams(ctx(), setter, 3n, 2n, [
      { address: bob.address, bftWeight: 2n },
      { address: alice.address, bftWeight: 1n },
    ]);
    const expected = [
      { address: bob.address, bftWeight: 2n, generatorKey: bob.generatorKey, blsKey: bob.blsKey },
      { address: alice.address, bftWeight: 1n, generatorKey: alice.generatorKey, blsKey: alice.blsKey },
    ];
    expect(calls).toEqual([[3n, 2n, expected]]);
    expect(method.getValidatorsParams(ctx())).toEqual({
      preCommitThreshold: 3n,
      certificateThreshold: 2n,
      validators: expected,
    });
    // Bytes: {preCommitThreshold#1 = 3, certificateThreshold#2 = 2, validators#3 [...]}
    const raw = harness.state.get(validatorsParamsStore.stateKey(Buffer.alloc(0))) as Buffer;
    expect(raw.subarray(0, 5).toString('hex')).toBe('080310021a');
  });

  it('works with the genesis hook context as the setter (ModuleHarness genesisContext)', () => {
    const { method, harness } = setup();
    const context = harness.genesisContext('finalize');
    method.registerValidatorKeys(context, carol.address, carol.blsKey, carol.generatorKey, carol.proofOfPossession);
    method.setValidatorsParams(context, context, 1n, 1n, [{ address: carol.address, bftWeight: 1n }]);
    expect(harness.nextValidators).toEqual({
      precommitThreshold: 1n,
      certificateThreshold: 1n,
      validators: [{ address: carol.address, bftWeight: 1n, generatorKey: carol.generatorKey, blsKey: carol.blsKey }],
    });
  });

  it('fails when a validator has no keys (lisk-sdk store get throws), and before genesis getValidatorsParams fails', () => {
    const { method, ctx } = setup();
    const setter = { setNextValidators: () => undefined };
    expect(() => method.setValidatorsParams(ctx(), setter, 1n, 1n, [{ address: alice.address, bftWeight: 1n }])).toThrow(NotFoundError);
    expect(() => method.getValidatorsParams(ctx())).toThrow(NotFoundError);
  });
});

describe('getGeneratorsBetweenTimestamps (blockTime 10)', () => {
  const addresses = [alice, bob, carol].map((v) => v.address);
  const key = (v: GenesisValidatorKeys) => v.address.toString('latin1');

  function withValidators(list: Buffer[]) {
    const env = setup(10);
    for (const [i, address] of list.entries()) {
      validatorKeysStore.set(env.harness.state, address, {
        generatorKey: Buffer.alloc(32, i),
        blsKey: Buffer.alloc(48, i),
      });
    }
    env.method.setValidatorsParams(
      env.ctx(),
      { setNextValidators: () => undefined },
      1n,
      1n,
      list.map((address) => ({ address, bftWeight: 1n })),
    );
    return env;
  }

  it('throws when the end is before the start', () => {
    const { method, ctx } = withValidators(addresses);
    expect(() => method.getGeneratorsBetweenTimestamps(ctx(), 101, 100)).toThrow(
      'End timestamp must be greater than or equal to start timestamp.',
    );
  });

  it('counts no slot for equal, same-slot or adjacent-slot timestamps', () => {
    const { method, ctx } = withValidators(addresses);
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 100, 100)).toEqual({});
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 100, 109)).toEqual({});
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 100, 110)).toEqual({});
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 109, 119)).toEqual({});
  });

  it('counts only the slots strictly between, with generator = set[slot mod n] (epoch slots)', () => {
    const { method, ctx } = withValidators(addresses);
    // Slots 10 and 12 are excluded; slot 11 → index 11 mod 3 = 2.
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 105, 125)).toEqual({ [key(carol)]: 1 });
    // Slots 11 and 12 → indexes 2, 0; the walk order decides the key order.
    const result = method.getGeneratorsBetweenTimestamps(ctx(), 100, 130);
    expect(result).toEqual({ [key(alice)]: 1, [key(carol)]: 1 });
    expect(Object.keys(result)).toEqual([key(carol), key(alice)]);
  });

  it('gives every validator the whole passes and walks the remainder from the first slot', () => {
    const { method, ctx } = withValidators(addresses);
    // Slots 1..9: three whole passes.
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 0, 100)).toEqual({ [key(alice)]: 3, [key(bob)]: 3, [key(carol)]: 3 });
    // Slots 1..10: 3 passes, the remaining slot is walked from slot 1 (index 1 = bob), as lisk-sdk does.
    const result = method.getGeneratorsBetweenTimestamps(ctx(), 0, 110);
    expect(result).toEqual({ [key(alice)]: 3, [key(bob)]: 4, [key(carol)]: 3 });
    expect(Object.keys(result)).toEqual([key(alice), key(bob), key(carol)]);
    expect(Buffer.from(Object.keys(result)[1] as string, 'latin1')).toEqual(bob.address);
  });

  it('returns {} for an empty validator set and throws before genesis', () => {
    expect(withValidators([]).method.getGeneratorsBetweenTimestamps(withValidators([]).ctx(), 0, 1000)).toEqual({});
    const { method, ctx } = setup(10);
    expect(() => method.getGeneratorsBetweenTimestamps(ctx(), 0, 1000)).toThrow(NotFoundError);
  });

  it('uses the configured blockTime', () => {
    const { method, ctx } = withValidators(addresses);
    const three = setup(3);
    validatorsParamsStore.set(three.harness.state, Buffer.alloc(0), validatorsParamsStore.getOrThrow(ctx().state, Buffer.alloc(0)));
    // blockTime 3: slots 34 and 36 are the ends; slot 35 → index 2.
    expect(three.method.getGeneratorsBetweenTimestamps(three.ctx(), 102, 108)).toEqual({ [key(carol)]: 1 });
    expect(method.getGeneratorsBetweenTimestamps(ctx(), 102, 108)).toEqual({});
  });
});
