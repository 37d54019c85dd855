/**
 * RPC endpoints `token_*` (lisk-sdk token/endpoint.ts): JSON in, JSON out, amounts as decimal
 * strings, token and chain IDs as hex. Params arrive validated against the request schemas by
 * the RPC layer; addresses are decoded here (a bad checksum throws FormatError).
 */
import { decodeLisk32 } from '../../crypto/index.js';
import type { EndpointContext, EndpointHandler } from '../base/index.js';
import { ADDRESS_LENGTH, CHAIN_ID_LENGTH, TOKEN_ID_LENGTH } from './constants.js';
import {
  getBalanceRequestSchema,
  getBalanceResponseSchema,
  getBalancesRequestSchema,
  getBalancesResponseSchema,
  getEscrowedAmountsResponseSchema,
  getInitializationFeesResponseSchema,
  getSupportedTokensResponseSchema,
  getTotalSupplyResponseSchema,
  hasEscrowAccountRequestSchema,
  hasEscrowAccountResponseSchema,
  hasUserAccountRequestSchema,
  hasUserAccountResponseSchema,
  isSupportedRequestSchema,
  isSupportedResponseSchema,
} from './schemas.js';
import type { TokenSettings } from './settings.js';
import { escrowKey, escrowStore, supplyStore, TOKEN_ID_RANGE, userKey, userStore, type UserAccount } from './stores.js';
import { allTokensSupported, chainSupportEntries, isTokenSupported } from './supported-tokens.js';

export interface LockedBalanceJSON {
  amount: string;
  module: string;
}

export interface BalanceJSON {
  availableBalance: string;
  lockedBalances: LockedBalanceJSON[];
}

function balanceJSON(account: UserAccount): BalanceJSON {
  return {
    availableBalance: account.availableBalance.toString(),
    lockedBalances: account.lockedBalances.map((locked) => ({ amount: locked.amount.toString(), module: locked.module })),
  };
}

function stringParam(context: EndpointContext, name: string): string {
  return context.params[name] as string;
}

/** Builds the endpoints of one token module instance (getInitializationFees reads its config). */
export function createTokenEndpoints(settings: TokenSettings): Readonly<Record<string, EndpointHandler>> {
  return {
    /** `{address, tokenID}` → the account's balance, zeros when it has none. */
    getBalance: {
      request: getBalanceRequestSchema,
      response: getBalanceResponseSchema,
      handle(context: EndpointContext): BalanceJSON {
        const address = decodeLisk32(stringParam(context, 'address'));
        const tokenID = Buffer.from(stringParam(context, 'tokenID'), 'hex');
        const account = userStore.get(context.state, userKey(address, tokenID));
        return account === undefined ? { availableBalance: '0', lockedBalances: [] } : balanceJSON(account);
      },
    },

    /** `{address}` → every token account of the address, in token ID order. */
    getBalances: {
      request: getBalancesRequestSchema,
      response: getBalancesResponseSchema,
      handle(context: EndpointContext): { balances: (BalanceJSON & { tokenID: string })[] } {
        const address = decodeLisk32(stringParam(context, 'address'));
        const entries = userStore.iterate(context.state, {
          gte: Buffer.concat([address, Buffer.alloc(TOKEN_ID_LENGTH, 0)]),
          lte: Buffer.concat([address, Buffer.alloc(TOKEN_ID_LENGTH, 0xff)]),
        });
        return {
          balances: entries.map(({ key, value }) => ({
            tokenID: key.subarray(ADDRESS_LENGTH).toString('hex'),
            ...balanceJSON(value),
          })),
        };
      },
    },

    /** Every supply entry. */
    getTotalSupply: {
      response: getTotalSupplyResponseSchema,
      handle(context: EndpointContext): { totalSupply: { tokenID: string; totalSupply: string }[] } {
        return {
          totalSupply: supplyStore.iterate(context.state, TOKEN_ID_RANGE).map(({ key, value }) => ({
            tokenID: key.toString('hex'),
            totalSupply: value.totalSupply.toString(),
          })),
        };
      },
    },

    /**
     * `['*']` when all tokens are supported; otherwise the network's LSK token, every token with
     * a supply entry (duplicates kept, as lisk-sdk), then per chain either `<chainID>********`
     * (all its tokens) or its listed token IDs.
     */
    getSupportedTokens: {
      response: getSupportedTokensResponseSchema,
      handle(context: EndpointContext): { supportedTokens: string[] } {
        if (allTokensSupported(context.state)) return { supportedTokens: ['*'] };
        const lskTokenID = Buffer.alloc(TOKEN_ID_LENGTH);
        lskTokenID[0] = context.chainID[0] ?? 0;
        const supportedTokens = [lskTokenID.toString('hex')];
        for (const { key } of supplyStore.iterate(context.state, TOKEN_ID_RANGE)) {
          supportedTokens.push(key.toString('hex'));
        }
        for (const { key, value } of chainSupportEntries(context.state)) {
          if (value.supportedTokenIDs.length === 0) supportedTokens.push(`${key.toString('hex')}********`);
          else for (const tokenID of value.supportedTokenIDs) supportedTokens.push(tokenID.toString('hex'));
        }
        return { supportedTokens };
      },
    },

    /** `{tokenID}` → whether this chain supports it. */
    isSupported: {
      request: isSupportedRequestSchema,
      response: isSupportedResponseSchema,
      handle(context: EndpointContext): { supported: boolean } {
        const tokenID = Buffer.from(stringParam(context, 'tokenID'), 'hex');
        return { supported: isTokenSupported(context.state, tokenID, settings.ownChainID) };
      },
    },

    /** Every escrow account (lisk-sdk scans keys from 8 zero bytes to 8 0xff bytes). */
    getEscrowedAmounts: {
      response: getEscrowedAmountsResponseSchema,
      handle(context: EndpointContext): { escrowedAmounts: { escrowChainID: string; amount: string; tokenID: string }[] } {
        return {
          escrowedAmounts: escrowStore.iterate(context.state, TOKEN_ID_RANGE).map(({ key, value }) => ({
            escrowChainID: key.subarray(0, CHAIN_ID_LENGTH).toString('hex'),
            amount: value.amount.toString(),
            tokenID: key.subarray(CHAIN_ID_LENGTH).toString('hex'),
          })),
        };
      },
    },

    /** The configured initialization fees. */
    getInitializationFees: {
      response: getInitializationFeesResponseSchema,
      handle(): { userAccount: string; escrowAccount: string } {
        return {
          userAccount: settings.config.userAccountInitializationFee.toString(),
          escrowAccount: settings.config.escrowAccountInitializationFee.toString(),
        };
      },
    },

    /** `{address, tokenID}` → whether the account exists. */
    hasUserAccount: {
      request: hasUserAccountRequestSchema,
      response: hasUserAccountResponseSchema,
      handle(context: EndpointContext): { exists: boolean } {
        const address = decodeLisk32(stringParam(context, 'address'));
        const tokenID = Buffer.from(stringParam(context, 'tokenID'), 'hex');
        return { exists: userStore.has(context.state, userKey(address, tokenID)) };
      },
    },

    /** `{escrowChainID, tokenID}` → whether the escrow account exists. */
    hasEscrowAccount: {
      request: hasEscrowAccountRequestSchema,
      response: hasEscrowAccountResponseSchema,
      handle(context: EndpointContext): { exists: boolean } {
        const escrowChainID = Buffer.from(stringParam(context, 'escrowChainID'), 'hex');
        const tokenID = Buffer.from(stringParam(context, 'tokenID'), 'hex');
        return { exists: escrowStore.has(context.state, escrowKey(escrowChainID, tokenID)) };
      },
    },
  };
}
