/**
 * `legacy:reclaimLSK` (lisk-core legacy/commands/reclaim.ts and its
 * test/application/modules/legacy/commands/reclaim.spec.ts) on the devnet
 * legacy and token genesis state, with the REAL token module (unlock and transfer from the
 * legacy reserve).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../../src/chain/transaction.js';
import { codec } from '../../../../src/codec/index.js';
import { addressFromPublicKey, legacyAddressFromPublicKey, legacyKeyPairFromPassphrase } from '../../../../src/crypto/index.js';
import { TransactionExecutionResult } from '../../../../src/engine/state-machine/state-machine.js';
import { ValidationError } from '../../../../src/errors.js';
import { VerifyStatus, type ExecutionHeader } from '../../../../src/modules/base/index.js';
import {
  ADDRESS_LEGACY_RESERVE,
  legacyAccountStore,
  legacyAddressOfPublicKey,
  reclaimLSKParamsSchema,
  type ReclaimLSKParams,
  type ReclaimLSKCommand,
} from '../../../../src/modules/legacy/index.js';
import type { ModuleHarness } from '../../../support/module-harness.js';
import {
  commandTransaction,
  DEVNET_LSK,
  devValidators,
  eventViews,
  harnessAfter,
  migratedDevnetGenesis,
  runTransaction,
  signedTransaction,
  varintHex,
  type GenesisOutcome,
  type LegacyWorld,
} from './legacy-test-kit.js';

/**
 * The first account of lisk-core's test/config/known_legacy_accounts_devnet.json (public devnet
 * test data): its legacy (sha256-passphrase) key owns legacy address 06cbc1b95358dd27, 68 LSK.
 */
const RECLAIMER = legacyKeyPairFromPassphrase('myth catalog feel remind merge myself clown fix trade mail escape degree');
const RECLAIMER_LEGACY_ADDRESS = '06cbc1b95358dd27';
const RECLAIMER_BALANCE = 6_800_000_000n;
const RECLAIMER_ADDRESS = addressFromPublicKey(RECLAIMER.publicKey);
/** Total locked on the reserve by the devnet genesis. */
const RESERVE_LOCKED = 329_000_000_000n;

const funder = devValidators()[0]!;
const hex = (value: string): Buffer => Buffer.from(value, 'hex');

describe('legacy reclaimLSK', () => {
  let world: LegacyWorld;
  let genesis: GenesisOutcome;
  let genesisHeader: ExecutionHeader;
  let command: ReclaimLSKCommand;

  beforeAll(async () => {
    ({ world, genesis, header: genesisHeader } = await migratedDevnetGenesis());
    command = world.legacy.commands.find((entry) => entry.name === 'reclaimLSK') as unknown as ReclaimLSKCommand;
  });

  const freshBlock = (): ModuleHarness => harnessAfter(genesis.state, genesisHeader);

  const transactionOf = (publicKey: Buffer, params: ReclaimLSKParams): Transaction =>
    commandTransaction('reclaimLSK', publicKey, codec.encode(reclaimLSKParamsSchema, params));

  const verify = (harness: ModuleHarness, publicKey: Buffer, amount: bigint) => {
    const params = { amount };
    return command.verify(harness.commandVerifyContext(transactionOf(publicKey, params), params));
  };

  /** A signed token transfer from genesis_0 (creates the recipient's account, as a real reclaimer needs one to pay fees). */
  async function fund(harness: ModuleHarness, recipient: Buffer, amount: bigint, nonce = 0n): Promise<void> {
    const transfer = world.modules.token.commands.find((entry) => entry.name === 'transfer')!;
    const tx = signedTransaction({
      module: 'token',
      command: 'transfer',
      params: codec.encode(transfer.schema, { tokenID: DEVNET_LSK, amount, recipientAddress: recipient, data: '' }),
      nonce,
      publicKey: hex(funder.publicKey),
      privateKey: hex(funder.privateKey),
    });
    const run = await runTransaction(world, harness, tx);
    expect(run.result).toBe(TransactionExecutionResult.OK);
    harness.commit();
  }

  describe('verify', () => {
    it('accepts the exact balance of the sender key’s legacy address', () => {
      expect(verify(freshBlock(), RECLAIMER.publicKey, RECLAIMER_BALANCE)).toEqual({ status: VerifyStatus.OK });
    });

    it('fails for a public key without a legacy account', () => {
      const result = verify(freshBlock(), hex(funder.publicKey), RECLAIMER_BALANCE);
      expect(result?.status).toBe(VerifyStatus.FAIL);
      expect(result?.error?.message).toBe('Public key does not correspond to a reclaimable account.');
    });

    it('fails for any amount other than the balance', () => {
      for (const amount of [0n, RECLAIMER_BALANCE - 1n, RECLAIMER_BALANCE + 1n, 15_100_000_000n]) {
        const result = verify(freshBlock(), RECLAIMER.publicKey, amount);
        expect(result?.status).toBe(VerifyStatus.FAIL);
        expect(result?.error?.message).toBe('Input amount does not equal the balance of the legacy account.');
      }
    });

    it('fails on params outside the schema', () => {
      // Not encodable, so only a caller that skips the state machine's decoding can pass it.
      const params = { amount: 2n ** 64n };
      const tx = transactionOf(RECLAIMER.publicKey, { amount: 0n });
      const result = command.verify(freshBlock().commandVerifyContext(tx, params));
      expect(result?.status).toBe(VerifyStatus.FAIL);
      expect(result?.error).toBeInstanceOf(ValidationError);
    });
  });

  describe('execute', () => {
    it('deletes the entry, unlocks and transfers from the reserve, emits accountReclaimed', async () => {
      const harness = freshBlock();
      await fund(harness, RECLAIMER_ADDRESS, 100_000_000n);
      const token = world.modules.token.method;
      const balanceBefore = token.getAvailableBalance(harness, RECLAIMER_ADDRESS, DEVNET_LSK);
      expect(balanceBefore).toBe(100_000_000n);

      const params = { amount: RECLAIMER_BALANCE };
      const tx = transactionOf(RECLAIMER.publicKey, params);
      void command.execute(harness.commandExecuteContext(tx, params));

      expect(legacyAccountStore.has(harness.state, hex(RECLAIMER_LEGACY_ADDRESS))).toBe(false);
      expect(token.getLockedAmount(harness, ADDRESS_LEGACY_RESERVE, DEVNET_LSK, 'legacy')).toBe(RESERVE_LOCKED - RECLAIMER_BALANCE);
      expect(token.getAvailableBalance(harness, ADDRESS_LEGACY_RESERVE, DEVNET_LSK)).toBe(0n);
      expect(token.getAvailableBalance(harness, RECLAIMER_ADDRESS, DEVNET_LSK)).toBe(balanceBefore + RECLAIMER_BALANCE);

      const txTopic = `04${tx.id.toString('hex')}`;
      const reserve = ADDRESS_LEGACY_RESERVE.toString('hex');
      const recipient = RECLAIMER_ADDRESS.toString('hex');
      const events = eventViews(harness.events.events());
      expect(events.map((event) => [event.module, event.name, event.topics])).toEqual([
        ['token', 'unlock', [txTopic, reserve]],
        ['token', 'transfer', [txTopic, reserve, recipient]],
        ['legacy', 'accountReclaimed', [txTopic, RECLAIMER_LEGACY_ADDRESS, recipient]],
      ]);
      // accountReclaimed {legacyAddress #1, address #2, amount #3}.
      expect(events[2]!.data).toBe(`0a08${RECLAIMER_LEGACY_ADDRESS}1214${recipient}18${varintHex(RECLAIMER_BALANCE)}`);
    });
  });

  describe('through the state machine (signed transactions, auth and fee hooks)', () => {
    it('a funded reclaimer gets its legacy balance once; a second reclaim is refused', async () => {
      const harness = freshBlock();
      await fund(harness, RECLAIMER_ADDRESS, 100_000_000n);
      const fee = 20_000_000n;
      const reclaim = (nonce: bigint): Transaction =>
        signedTransaction({
          module: 'legacy',
          command: 'reclaimLSK',
          params: codec.encode(reclaimLSKParamsSchema, { amount: RECLAIMER_BALANCE }),
          nonce,
          fee,
          publicKey: RECLAIMER.publicKey,
          privateKey: RECLAIMER.privateKey,
        });

      const run = await runTransaction(world, harness, reclaim(0n));
      expect(run.verify.status).toBe(VerifyStatus.OK);
      expect(run.result).toBe(TransactionExecutionResult.OK);
      expect(world.modules.token.method.getAvailableBalance(harness, RECLAIMER_ADDRESS, DEVNET_LSK)).toBe(
        100_000_000n - fee + RECLAIMER_BALANCE,
      );
      expect(harness.events.events().some((event) => event.name === 'accountReclaimed')).toBe(true);
      expect(harness.events.events().at(-1)?.data.toString('hex')).toBe('0801');

      const again = await runTransaction(world, harness, reclaim(1n));
      expect(again.verify.status).toBe(VerifyStatus.FAIL);
      expect(again.verify.error?.message).toBe('Public key does not correspond to a reclaimable account.');
    });

    it('the legacy address is sha256(publicKey)[0..8) reversed (lisk-core utils.ts getLegacyAddress)', () => {
      expect(RECLAIMER.publicKey.toString('hex')).toBe('86cbecb2a176934e454f63e7ffa05783be6960d90002c5558dfd31397cd8f020');
      expect(legacyAddressOfPublicKey(RECLAIMER.publicKey).toString('hex')).toBe(RECLAIMER_LEGACY_ADDRESS);
      // The same 8 bytes read as a big-endian integer are the v3 numeric address.
      expect(`${hex(RECLAIMER_LEGACY_ADDRESS).readBigUInt64BE(0)}L`).toBe(legacyAddressFromPublicKey(RECLAIMER.publicKey));
    });
  });
});
