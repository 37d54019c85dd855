/**
 * Small faithful in-test implementations of what dynamicReward calls on token, random and pos
 * (the real modules are written in parallel). They work on the same state and event queue as the
 * module under test and follow lisk-sdk's behaviour for the calls made here; every call is logged
 * so tests can assert lisk-sdk's call order.
 */
import { codec, type Schema } from '../../../../src/codec/index.js';
import { sha256 } from '../../../../src/crypto/sha256.js';
import {
  ModuleEvent,
  ModuleStore,
  type ExecutionAssets,
  type MethodContext,
  type ReadContext,
} from '../../../../src/modules/base/index.js';
import type {
  DynamicRewardPosMethod,
  DynamicRewardRandomMethod,
  DynamicRewardTokenMethod,
} from '../../../../src/modules/dynamic-reward/index.js';

/** Reduced token user account (lisk-sdk keeps locked balances too, irrelevant to minting). */
const userSchema: Schema = {
  $id: '/test/token/user',
  type: 'object',
  required: ['availableBalance'],
  properties: { availableBalance: { dataType: 'uint64', fieldNumber: 1 } },
};

/** lisk-sdk token mint event data (token/events/mint.ts). */
const mintEventSchema: Schema = {
  $id: '/test/token/events/mint',
  type: 'object',
  required: ['address', 'tokenID', 'amount', 'result'],
  properties: {
    address: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
    tokenID: { dataType: 'bytes', fieldNumber: 2 },
    amount: { dataType: 'uint64', fieldNumber: 3 },
    result: { dataType: 'uint32', fieldNumber: 4 },
  },
};

export const userStore = new ModuleStore<{ availableBalance: bigint }>('token', 'user', 0, userSchema);
const mintEvent = new ModuleEvent<{ address: Buffer; tokenID: Buffer; amount: bigint; result: number }>('token', 'mint', mintEventSchema);

export class InTestToken implements DynamicRewardTokenMethod {
  readonly calls: string[];

  constructor(calls: string[]) {
    this.calls = calls;
  }

  static userKey(address: Buffer, tokenID: Buffer): Buffer {
    return Buffer.concat([address, tokenID]);
  }

  createAccount(ctx: MethodContext, address: Buffer, tokenID: Buffer, balance = 0n): void {
    userStore.set(ctx.state, InTestToken.userKey(address, tokenID), { availableBalance: balance });
  }

  balance(ctx: ReadContext, address: Buffer, tokenID: Buffer): bigint {
    return userStore.get(ctx.state, InTestToken.userKey(address, tokenID))?.availableBalance ?? 0n;
  }

  userSubstoreExists(ctx: ReadContext, address: Buffer, tokenID: Buffer): boolean {
    this.calls.push('token.userSubstoreExists');
    return userStore.has(ctx.state, InTestToken.userKey(address, tokenID));
  }

  mint(ctx: MethodContext, address: Buffer, tokenID: Buffer, amount: bigint): void {
    this.calls.push(`token.mint ${amount}`);
    if (amount <= 0n) return;
    const key = InTestToken.userKey(address, tokenID);
    const account = userStore.getOrThrow(ctx.state, key);
    userStore.set(ctx.state, key, { availableBalance: account.availableBalance + amount });
    mintEvent.emit(ctx.events, { address, tokenID, amount, result: 0 }, [address]);
  }
}

const randomAssetSchema: Schema = {
  $id: '/test/random/asset',
  type: 'object',
  required: ['seedReveal'],
  properties: { seedReveal: { dataType: 'bytes', fieldNumber: 1 } },
};

/** Encodes a random module block asset. */
export function randomAsset(seedReveal: Buffer): Buffer {
  return codec.encode(randomAssetSchema, { seedReveal });
}

/**
 * lisk-sdk random isSeedRevealValid with previousSeedRequired = false: valid when the generator
 * has no earlier reveal, else when H(seedReveal)[0..16) equals its last reveal.
 */
export class InTestRandom implements DynamicRewardRandomMethod {
  private readonly reveals: { generatorAddress: Buffer; seedReveal: Buffer }[] = [];

  constructor(private readonly maxLengthReveals = 206) {}

  isSeedRevealValid(_ctx: ReadContext, generatorAddress: Buffer, assets: ExecutionAssets): boolean {
    const asset = assets.getAsset('random');
    if (asset === undefined) throw new Error('Block asset is missing.');
    const { seedReveal } = codec.decode<{ seedReveal: Buffer }>(randomAssetSchema, asset);
    for (let i = this.reveals.length - 1; i >= 0; i -= 1) {
      const reveal = this.reveals[i]!;
      if (reveal.generatorAddress.equals(generatorAddress)) {
        return reveal.seedReveal.equals(sha256(seedReveal).subarray(0, 16));
      }
    }
    return true;
  }

  /** What random's afterTransactionsExecute stores for each block. */
  recordReveal(generatorAddress: Buffer, seedReveal: Buffer): void {
    this.reveals.push({ generatorAddress, seedReveal });
    if (this.reveals.length > this.maxLengthReveals) this.reveals.shift();
  }
}

/** lisk-sdk PoS getRoundLength / isEndOfRound (genesis height 0); shared rewards are only logged. */
export class InTestPos implements DynamicRewardPosMethod {
  constructor(
    private readonly calls: string[],
    public roundLength = 103,
    private readonly genesisHeight = 0,
  ) {}

  getRoundLength(): number {
    return this.roundLength;
  }

  isEndOfRound(_ctx: ReadContext, height: number): boolean {
    this.calls.push(`pos.isEndOfRound ${height}`);
    return (height - this.genesisHeight) % this.roundLength === 0;
  }

  updateSharedRewards(_ctx: MethodContext, generatorAddress: Buffer, tokenID: Buffer, reward: bigint): void {
    this.calls.push(`pos.updateSharedRewards ${generatorAddress.toString('hex')} ${tokenID.toString('hex')} ${reward}`);
  }
}
