/**
 * RPC endpoints `random_*` (lisk-sdk random/endpoint.ts). Params arrive
 * validated against the request schemas by the RPC layer. All but isSeedRevealValid touch the
 * node's own hash onions (secrets that make its future reveals predictable), hence `sensitive`.
 */
import { decodeLisk32, encodeLisk32, generateHashOnion, generateHashOnionSeed, sha256 } from '../../crypto/index.js';
import { InvalidParamsError, NotFoundError } from '../../errors.js';
import { computeStorePrefix, type EndpointContext, type EndpointHandler } from '../base/index.js';
import { DEFAULT_HASH_ONION_DISTANCE, EMPTY_KEY, MAX_HASH_COMPUTATION, RANDOM_MODULE_NAME } from './constants.js';
import type { HashOnionStore } from './hash-onion-store.js';
import type { UsedHashOnion } from './hash-onion-types.js';
import { latestUsage } from './hash-onion-usage.js';
import {
  addressRequestSchema,
  getHashOnionUsageResponseSchema,
  hasHashOnionResponseSchema,
  isSeedRevealValidRequestSchema,
  isSeedRevealValidResponseSchema,
  setHashOnionRequestSchema,
  setHashOnionUsageRequestSchema,
} from './schemas.js';
import { isSeedRevealValidAgainst } from './seed-reveal.js';
import { validatorRevealsStore } from './stores.js';

/**
 * The key lisk-sdk's off-chain hashOnion store would report as missing: module store prefix ‖
 * sha256("hashOnion" ‖ uint16be(0))[0..2) ‖ address (= 2441b15f59e3 ‖ address).
 */
const HASH_ONION_KEY_PREFIX = Buffer.concat([
  computeStorePrefix(RANDOM_MODULE_NAME),
  sha256(Buffer.concat([Buffer.from('hashOnion', 'utf8'), Buffer.alloc(2)])).subarray(0, 2),
]);

/** Usage reported for an onion that has not been used at all. */
const UNUSED: readonly UsedHashOnion[] = [{ count: 0, height: 0 }];

function addressParam(context: EndpointContext, name = 'address'): Buffer {
  return decodeLisk32(context.params[name] as string);
}

/**
 * `random_isSeedRevealValid {generatorAddress, seedReveal}` → `{valid}` under the reward rule
 * (a generator without a previous reveal is valid), against the tip's validatorReveals.
 */
export const isSeedRevealValidEndpoint: EndpointHandler = {
  request: isSeedRevealValidRequestSchema,
  response: isSeedRevealValidResponseSchema,
  handle(context: EndpointContext): { valid: boolean } {
    const { validatorReveals } = validatorRevealsStore.getOrThrow(context.state, EMPTY_KEY);
    const generatorAddress = addressParam(context, 'generatorAddress');
    const seedReveal = Buffer.from(context.params.seedReveal as string, 'hex');
    return { valid: isSeedRevealValidAgainst(generatorAddress, seedReveal, validatorReveals, false) };
  },
};

/** The endpoints over the node's hash onions, reading and writing `store`. */
export function createRandomEndpoints(store: HashOnionStore): Record<string, EndpointHandler> {
  return {
    isSeedRevealValid: isSeedRevealValidEndpoint,

    /**
     * `setHashOnion {address, seed?, count? = 10000, distance? = 1000, hashes?}`: registers an
     * onion (computed here from `seed`, or given as `hashes` checkpoints) and marks it unused.
     */
    setHashOnion: {
      request: setHashOnionRequestSchema,
      sensitive: true,
      handle(context: EndpointContext): void {
        const params = context.params as { seed?: string; count?: number; distance?: number; hashes?: string[] };
        const address = addressParam(context);
        const count = params.count ?? MAX_HASH_COMPUTATION;
        const distance = params.distance ?? DEFAULT_HASH_ONION_DISTANCE;
        if (count % distance !== 0) {
          throw new InvalidParamsError('Invalid count. Count must be multiple of distance.');
        }
        let hashes: Buffer[];
        if (params.hashes !== undefined) {
          // Given checkpoints only make sense with the count and distance they were made with.
          if (!params.count || !params.distance) {
            throw new InvalidParamsError('Hashes must be provided with count and distance.');
          }
          const expectedLength = count / distance + 1;
          if (params.hashes.length !== expectedLength) {
            throw new InvalidParamsError(`Invalid length of hashes. hashes must have ${expectedLength} elements.`);
          }
          hashes = params.hashes.map((hash) => Buffer.from(hash, 'hex'));
        } else {
          if (count > MAX_HASH_COMPUTATION) {
            throw new InvalidParamsError(
              `Count is too big. In order to set count greater than ${MAX_HASH_COMPUTATION}, please compute locally and request with "hashes".`,
            );
          }
          const seed = params.seed ? Buffer.from(params.seed, 'hex') : generateHashOnionSeed();
          hashes = generateHashOnion(seed, count, distance);
        }
        store.setHashOnion(address, { count, distance, hashes });
        store.setUsage(address, UNUSED);
      },
    },

    /** `getHashOnionSeeds` → `{seeds: [{address, seed, count, distance}]}` in address order. */
    getHashOnionSeeds: {
      // lisk-sdk's metadata gives setHashOnion's request schema as this endpoint's response.
      response: setHashOnionRequestSchema,
      sensitive: true,
      handle(): { seeds: { address: string; seed: string; count: number; distance: number }[] } {
        return {
          seeds: store.listHashOnions().map(({ address, onion }) => ({
            address: encodeLisk32(address),
            seed: (onion.hashes[onion.hashes.length - 1] as Buffer).toString('hex'),
            count: onion.count,
            distance: onion.distance,
          })),
        };
      },
    },

    /**
     * `hasHashOnion {address}` → `{hasSeed, remaining}`: remaining = count − the latest use-count;
     * no onion, or one used up, gives `{hasSeed: false, remaining: 0}`.
     */
    hasHashOnion: {
      request: addressRequestSchema,
      response: hasHashOnionResponseSchema,
      sensitive: true,
      handle(context: EndpointContext): { hasSeed: boolean; remaining: number } {
        const address = addressParam(context);
        const onion = store.getHashOnion(address);
        if (onion === undefined) return { hasSeed: false, remaining: 0 };
        const latest = latestUsage(store.getUsage(address) ?? []);
        if (latest === undefined) return { hasSeed: true, remaining: onion.count };
        if (latest.count === onion.count) return { hasSeed: false, remaining: 0 };
        return { hasSeed: true, remaining: onion.count - latest.count };
      },
    },

    /**
     * `getHashOnionUsage {address}` → `{usedHashOnions, seed}`; never-used onions report
     * `[{count: 0, height: 0}]`; an address without an onion is not found.
     */
    getHashOnionUsage: {
      request: addressRequestSchema,
      response: getHashOnionUsageResponseSchema,
      sensitive: true,
      handle(context: EndpointContext): { usedHashOnions: UsedHashOnion[]; seed: string } {
        const address = addressParam(context);
        const onion = store.getHashOnion(address);
        if (onion === undefined) {
          throw new NotFoundError(`Specified key ${Buffer.concat([HASH_ONION_KEY_PREFIX, address]).toString('hex')} does not exist`);
        }
        const seed = (onion.hashes[onion.hashes.length - 1] as Buffer).toString('hex');
        const usedHashOnions = (store.getUsage(address) ?? UNUSED).map(({ count, height }) => ({ count, height }));
        return { usedHashOnions, seed };
      },
    },

    /** `setHashOnionUsage {address, usedHashOnions}`: overwrites the usage records (not in metadata). */
    setHashOnionUsage: {
      request: setHashOnionUsageRequestSchema,
      sensitive: true,
      handle(context: EndpointContext): void {
        const usage = context.params.usedHashOnions as UsedHashOnion[];
        store.setUsage(addressParam(context), usage);
      },
    },
  };
}
