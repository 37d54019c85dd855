/**
 * The token module's genesis asset (lisk-migrator `src/assets/token.ts`): each account's LSK
 * balance as available, its v3 votes and pending unvotes as locked by PoS, the legacy reserve
 * holding the unregistered balances locked by the legacy module, and the total supply.
 */
import { codec, encodeLisk32Address } from '../../codec/index.js';
import { ADDRESS_LEGACY_RESERVE } from '../../modules/legacy/constants.js';
import { genesisTokenAssetSchema } from '../../modules/token/schemas.js';
import type { V3Account, V3UnregisteredAddress } from '../v3/v3-schemas.js';
import { compareBytes, posLockedAmount } from './account-rules.js';
import { ArrayFieldWriter, lengthDelimited, rootSchemaOf } from './array-field-writer.js';
import { ASSET_ARRAY_INDENT } from './asset-layout.js';
import { legacyReserveAmount } from './legacy.js';

interface Locked {
  readonly module: string;
  readonly amount: bigint;
}

const RESERVE_LISK32 = encodeLisk32Address(ADDRESS_LEGACY_RESERVE);
const members = (genesisTokenAssetSchema as { properties: Record<string, { items: object }> }).properties;
const supplyItemSchema = rootSchemaOf('/migration/token/supply', members.supplySubstore?.items as object);

/**
 * Builds the token asset from accounts given in address order. Every account but the reserve
 * gets an entry, whatever its balance; the reserve gets one entry, where its address falls, with
 * its own balance and locks plus the legacy lock, even when that lock is 0. The supply counts
 * every account's balance and PoS lock, and the legacy lock on top: a reserve that held LSK in v3
 * is counted twice, as lisk-migrator does (v4 then rejects the block).
 */
export class TokenAssetBuilder {
  readonly userSubstore = new ArrayFieldWriter(1, members.userSubstore?.items as object, ASSET_ARRAY_INDENT);
  private readonly tokenIDHex: string;
  private reserveWritten = false;
  private totalSupply = 0n;
  private legacyAmount = 0n;

  constructor(
    private readonly tokenID: Buffer,
    private readonly unregisteredAddresses: readonly V3UnregisteredAddress[],
  ) {
    this.tokenIDHex = tokenID.toString('hex');
  }

  /** `lisk32` is the account's address in lisk32 form. */
  addAccount(account: V3Account, lisk32: string): void {
    const isReserve = account.address.equals(ADDRESS_LEGACY_RESERVE);
    if (!isReserve && compareBytes(account.address, ADDRESS_LEGACY_RESERVE) > 0) this.writeReserve(undefined);
    const locked = posLockedAmount(account);
    this.totalSupply += account.token.balance + locked;
    const locks: Locked[] = locked > 0n ? [{ module: 'pos', amount: locked }] : [];
    if (isReserve) this.writeReserve(account, locks);
    else this.writeEntry(lisk32, account.address, account.token.balance, locks);
  }

  /** The asset bytes and its JSON members after the last account. */
  finish(): { readonly bytes: Buffer; readonly supplySubstore: readonly object[] } {
    this.writeReserve(undefined);
    const totalSupply = this.totalSupply + this.legacyAmount;
    const supply = { tokenID: this.tokenID, totalSupply };
    return {
      bytes: Buffer.concat([this.userSubstore.bytes(), lengthDelimited(2, codec.encode(supplyItemSchema, supply))]),
      supplySubstore: [{ tokenID: this.tokenIDHex, totalSupply: totalSupply.toString() }],
    };
  }

  private writeReserve(reserve: V3Account | undefined, ownLocks: readonly Locked[] = []): void {
    if (this.reserveWritten) return;
    this.reserveWritten = true;
    const balance = reserve?.token.balance ?? 0n;
    this.legacyAmount = legacyReserveAmount(balance, this.unregisteredAddresses);
    const locks = [...ownLocks, { module: 'legacy', amount: this.legacyAmount }].sort((a, b) => a.module.localeCompare(b.module, 'en'));
    this.writeEntry(RESERVE_LISK32, ADDRESS_LEGACY_RESERVE, balance, locks);
  }

  private writeEntry(lisk32: string, address: Buffer, availableBalance: bigint, lockedBalances: readonly Locked[]): void {
    this.userSubstore.add(
      {
        tokenID: this.tokenIDHex,
        availableBalance: availableBalance.toString(),
        lockedBalances: lockedBalances.map(({ module, amount }) => ({ module, amount: amount.toString() })),
        address: lisk32,
      },
      { address, tokenID: this.tokenID, availableBalance, lockedBalances },
    );
  }
}
