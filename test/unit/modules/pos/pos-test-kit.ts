/**
 * Shared pieces of the pos tests: small faithful in-test implementations of the token and fee
 * methods pos depends on (over the same state, lisk-sdk token/fee semantics for what pos uses),
 * the real validators and random methods, and builders for transactions and contexts.
 */
import type { Schema } from '../../../../src/codec/index.js';
import { codec } from '../../../../src/codec/index.js';
import { addressFromPublicKey, sha256 } from '../../../../src/crypto/index.js';
import {
  ModuleEvent,
  ModuleStore,
  type Command,
  type ExecutionTransaction,
  type MethodContext,
  type ReadContext,
} from '../../../../src/modules/base/index.js';
import {
  EMPTY_KEY,
  genesisDataStore,
  nameStore,
  PosModule,
  validatorStore,
  type GenesisData,
  type ValidatorAccount,
} from '../../../../src/modules/pos/index.js';
import type { PosFeeMethod, PosTokenMethod } from '../../../../src/modules/pos/dependencies.js';
import { RandomMethod } from '../../../../src/modules/random/method.js';
import { ValidatorsMethod } from '../../../../src/modules/validators/method.js';
import { testGenesisConfig, type ModuleHarness } from '../../../support/module-harness.js';

export const TOKEN_ID = Buffer.from('0400000000000000', 'hex');

interface UserAccount {
  availableBalance: bigint;
  lockedBalances: { module: string; amount: bigint }[];
}

const userSchema: Schema = {
  $id: '/token/store/user',
  type: 'object',
  required: ['availableBalance', 'lockedBalances'],
  properties: {
    availableBalance: { dataType: 'uint64', fieldNumber: 1 },
    lockedBalances: {
      type: 'array',
      fieldNumber: 2,
      items: {
        type: 'object',
        required: ['module', 'amount'],
        properties: {
          module: { dataType: 'string', fieldNumber: 1 },
          amount: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
  },
};

const lockSchema: Schema = {
  $id: '/token/events/lock',
  type: 'object',
  required: ['address', 'module', 'tokenID', 'amount', 'result'],
  properties: {
    address: { dataType: 'bytes', fieldNumber: 1 },
    module: { dataType: 'string', fieldNumber: 2 },
    tokenID: { dataType: 'bytes', fieldNumber: 3 },
    amount: { dataType: 'uint64', fieldNumber: 4 },
    result: { dataType: 'uint32', fieldNumber: 5 },
  },
};

const transferSchema: Schema = {
  $id: '/token/events/transfer',
  type: 'object',
  required: ['senderAddress', 'recipientAddress', 'tokenID', 'amount', 'result'],
  properties: {
    senderAddress: { dataType: 'bytes', fieldNumber: 1 },
    recipientAddress: { dataType: 'bytes', fieldNumber: 2 },
    tokenID: { dataType: 'bytes', fieldNumber: 3 },
    amount: { dataType: 'uint64', fieldNumber: 4 },
    result: { dataType: 'uint32', fieldNumber: 5 },
  },
};

/** lisk-sdk token user substore layout (index 0, key address ‖ tokenID). */
export const userStore = new ModuleStore<UserAccount>('token', 'user', 0, userSchema);
const lockEvent = new ModuleEvent<object>('token', 'lock', lockSchema);
const unlockEvent = new ModuleEvent<object>('token', 'unlock', lockSchema);
const transferEvent = new ModuleEvent<object>('token', 'transfer', transferSchema);

const userKey = (address: Buffer, tokenID: Buffer): Buffer => Buffer.concat([address, tokenID]);

/**
 * lisk-sdk TokenMethod lock/unlock/transfer/getLockedAmount over the token user substore, with
 * their events and failure rules (non-positive amounts do nothing; failures emit a
 * non-revertible event with result 1 and throw). Plus helpers to fund accounts.
 */
export class TestToken implements PosTokenMethod {
  calls: string[] = [];

  account(ctx: ReadContext, address: Buffer, tokenID: Buffer = TOKEN_ID): UserAccount | undefined {
    return userStore.get(ctx.state, userKey(address, tokenID));
  }

  available(ctx: ReadContext, address: Buffer, tokenID: Buffer = TOKEN_ID): bigint {
    return this.account(ctx, address, tokenID)?.availableBalance ?? 0n;
  }

  /** Adds to the available balance, creating the account (stands for mint / transfers in). */
  credit(ctx: { state: MethodContext['state'] }, address: Buffer, amount: bigint, tokenID: Buffer = TOKEN_ID): void {
    const account = this.account(ctx, address, tokenID) ?? { availableBalance: 0n, lockedBalances: [] };
    account.availableBalance += amount;
    this.save(ctx, address, tokenID, account);
  }

  /** Removes from the available balance (stands for fees paid). */
  debit(ctx: { state: MethodContext['state'] }, address: Buffer, amount: bigint, tokenID: Buffer = TOKEN_ID): void {
    const account = this.account(ctx, address, tokenID);
    if (account === undefined || account.availableBalance < amount) throw new Error('test token: insufficient balance');
    account.availableBalance -= amount;
    this.save(ctx, address, tokenID, account);
  }

  /** Sets an account as a genesis token asset would. */
  setAccount(ctx: { state: MethodContext['state'] }, address: Buffer, account: UserAccount, tokenID: Buffer = TOKEN_ID): void {
    this.save(ctx, address, tokenID, account);
  }

  lock(ctx: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void {
    this.calls.push(`lock ${module} ${amount}`);
    if (amount <= 0n) return;
    const data = { address, module, tokenID, amount };
    const account = this.account(ctx, address, tokenID);
    if (account === undefined || account.availableBalance < amount) {
      lockEvent.emit(ctx.events, { ...data, result: 1 }, [address], true);
      throw new Error('Insufficient balance to lock.');
    }
    account.availableBalance -= amount;
    const locked = account.lockedBalances.find((entry) => entry.module === module);
    if (locked) locked.amount += amount;
    else account.lockedBalances.push({ module, amount });
    this.save(ctx, address, tokenID, account);
    lockEvent.emit(ctx.events, { ...data, result: 0 }, [address]);
  }

  unlock(ctx: MethodContext, address: Buffer, module: string, tokenID: Buffer, amount: bigint): void {
    this.calls.push(`unlock ${module} ${amount}`);
    if (amount <= 0n) return;
    const data = { address, module, tokenID, amount };
    const account = this.account(ctx, address, tokenID);
    const locked = account?.lockedBalances.find((entry) => entry.module === module);
    if (account === undefined || locked === undefined || locked.amount < amount) {
      unlockEvent.emit(ctx.events, { ...data, result: 1 }, [address], true);
      throw new Error('Insufficient locked balance to unlock.');
    }
    locked.amount -= amount;
    account.availableBalance += amount;
    this.save(ctx, address, tokenID, account);
    unlockEvent.emit(ctx.events, { ...data, result: 0 }, [address]);
  }

  transfer(ctx: MethodContext, senderAddress: Buffer, recipientAddress: Buffer, tokenID: Buffer, amount: bigint): void {
    this.calls.push(`transfer ${amount}`);
    if (amount <= 0n) return;
    const data = { senderAddress, recipientAddress, tokenID, amount };
    const sender = this.account(ctx, senderAddress, tokenID);
    if (sender === undefined || sender.availableBalance < amount) {
      transferEvent.emit(ctx.events, { ...data, result: 1 }, [senderAddress, recipientAddress], true);
      throw new Error('Insufficient balance to transfer.');
    }
    sender.availableBalance -= amount;
    this.save(ctx, senderAddress, tokenID, sender);
    this.credit(ctx, recipientAddress, amount, tokenID);
    transferEvent.emit(ctx.events, { ...data, result: 0 }, [senderAddress, recipientAddress]);
  }

  getLockedAmount(ctx: ReadContext, address: Buffer, tokenID: Buffer, module: string): bigint {
    return this.account(ctx, address, tokenID)?.lockedBalances.find((entry) => entry.module === module)?.amount ?? 0n;
  }

  private save(ctx: { state: MethodContext['state'] }, address: Buffer, tokenID: Buffer, account: UserAccount): void {
    const lockedBalances = account.lockedBalances
      .filter((entry) => entry.amount !== 0n)
      .sort((a, b) => a.module.localeCompare(b.module, 'en'));
    userStore.set(ctx.state, userKey(address, tokenID), { ...account, lockedBalances });
  }
}

export const AVAILABLE_FEE_KEY = 'fee:availableFee';

/** lisk-sdk FeeMethod.payFee: spends from the transaction's fee left after the byte fee. */
export class TestFee implements PosFeeMethod {
  payFee(ctx: MethodContext, amount: bigint): void {
    const available = (ctx.contextStore.get(AVAILABLE_FEE_KEY) as bigint | undefined) ?? 0n;
    if (available < amount) {
      ctx.contextStore.delete(AVAILABLE_FEE_KEY);
      throw new Error('Transaction ran out of fee.');
    }
    ctx.contextStore.set(AVAILABLE_FEE_KEY, available - amount);
  }
}

export interface PosSetup {
  pos: PosModule;
  token: TestToken;
  fee: TestFee;
  validators: ValidatorsMethod;
  random: RandomMethod;
}

/** A pos module wired to the test token and fee and the real validators and random methods. */
export function createPos(moduleConfig: Record<string, unknown> = {}, blockTime = testGenesisConfig.blockTime): PosSetup {
  const token = new TestToken();
  const fee = new TestFee();
  const validators = new ValidatorsMethod();
  validators.init({ blockTime });
  const random = new RandomMethod();
  const pos = new PosModule({ token, fee, validators, random });
  pos.init({ genesisConfig: { ...testGenesisConfig, blockTime }, moduleConfig });
  return { pos, token, fee, validators, random };
}

/** A deterministic 32-byte public key and its address for test accounts. */
export function account(seed: string): { publicKey: Buffer; address: Buffer } {
  const publicKey = sha256(Buffer.from(seed, 'utf8'));
  return { publicKey, address: addressFromPublicKey(publicKey) };
}

let nextNonce = 0n;

/** A transaction of `pos` with encoded params (its signature is not checked by commands). */
export function posTransaction(
  command: string,
  schema: Schema,
  params: object,
  sender: { publicKey: Buffer },
  fee = 10_000_000n,
): ExecutionTransaction {
  const encoded = codec.encode(schema, params);
  const nonce = nextNonce++;
  const id = sha256(Buffer.concat([Buffer.from(command), encoded, Buffer.from(nonce.toString())]));
  return {
    module: 'pos',
    command,
    nonce,
    fee,
    senderPublicKey: sender.publicKey,
    params: encoded,
    signatures: [Buffer.alloc(64)],
    id,
    size: 200,
    senderAddress: () => addressFromPublicKey(sender.publicKey),
    signingBytes: () => Buffer.alloc(0),
  };
}

/** The events of the harness's block, in order, for one module, with data decoded as JSON-ish hex. */
export function moduleEvents(harness: ModuleHarness, module: string): { name: string; data: Buffer; topics: Buffer[] }[] {
  return harness.events
    .events()
    .filter((event) => event.module === module)
    .map((event) => ({ name: event.name, data: event.data, topics: [...event.topics] }));
}

/** A pos validator account written straight into the stores (no keys in the validators module). */
export function addValidator(harness: ModuleHarness, address: Buffer, overrides: Partial<ValidatorAccount> = {}): ValidatorAccount {
  const validator: ValidatorAccount = {
    name: `v${address.toString('hex').slice(0, 8)}`,
    totalStake: 0n,
    selfStake: 0n,
    lastGeneratedHeight: 0,
    isBanned: false,
    reportMisbehaviorHeights: [],
    consecutiveMissedBlocks: 0,
    commission: 10_000,
    lastCommissionIncreaseHeight: 0,
    sharingCoefficients: [],
    ...overrides,
  };
  validatorStore.set(harness.state, address, validator);
  nameStore.set(harness.state, Buffer.from(validator.name, 'utf8'), { validatorAddress: address });
  return validator;
}

/** The genesis data store entry (genesis height, bootstrap rounds, init validators). */
export function setGenesisData(harness: ModuleHarness, data: Partial<GenesisData> = {}): void {
  genesisDataStore.set(harness.state, EMPTY_KEY, { height: 0, initRounds: 3, initValidators: [], ...data });
}

export interface CommandOutcome {
  ok: boolean;
  error?: Error;
}

/**
 * Runs a command's execute as the state machine does: a throw reverts the command's state
 * changes and events, except the non-revertible ones.
 */
export function runCommand<P>(harness: ModuleHarness, command: Command<P>, tx: ExecutionTransaction, params: P): CommandOutcome {
  const stateSnapshot = harness.state.snapshot();
  const eventSnapshot = harness.events.snapshot();
  try {
    void command.execute(harness.commandExecuteContext(tx, params));
    return { ok: true };
  } catch (error) {
    harness.state.restore(stateSnapshot);
    harness.events.restore(eventSnapshot);
    return { ok: false, error: error as Error };
  }
}

/** The command of a pos module by name. */
export function posCommand<P>(pos: PosModule, name: string): Command<P> {
  const command = pos.commands.find((candidate) => candidate.name === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  return command as Command<P>;
}

/** Decodes an event's data with a schema, for assertions. */
export function decodeEvent<T>(schema: Schema, data: Buffer): T {
  return codec.decode<T>(schema, data);
}
