import { codec } from '../../../codec/index.js';
import { NotFoundError } from '../../../errors.js';
import type { StateReader, StateWriter } from '../../../state/state-view.js';
import { bftParametersSchema, bftVotesSchema, type BftParameters, type BftVotes } from './schemas.js';

/**
 * The engine's BFT store, kept outside the state tree (LIP 0058) under lisk-sdk's
 * key layout: prefix 00000000, substore 0000 for parameters keyed by uint32be(first height),
 * substore 8000 for the votes. Stored in the engine state, which reverts with its block.
 */
const PARAMETERS_PREFIX = Buffer.from('000000000000', 'hex');
const VOTES_KEY = Buffer.from('000000008000', 'hex');
const MAX_UINT32 = 0xffffffff;

export class BftParametersNotFoundError extends NotFoundError {
  constructor(height: number) {
    super(`BFT parameters for height ${height} do not exist.`);
  }
}

function parametersKey(height: number): Buffer {
  const key = Buffer.alloc(PARAMETERS_PREFIX.length + 4);
  PARAMETERS_PREFIX.copy(key);
  key.writeUInt32BE(height, PARAMETERS_PREFIX.length);
  return key;
}

function heightOfKey(key: Buffer): number {
  return key.readUInt32BE(PARAMETERS_PREFIX.length);
}

export function readVotesBytes(state: StateReader): Buffer {
  const raw = state.get(VOTES_KEY);
  if (raw === undefined) throw new NotFoundError('BFT votes are not initialised.');
  return raw;
}

export function decodeVotes(raw: Buffer): BftVotes {
  return codec.decode<BftVotes>(bftVotesSchema, raw);
}

/** A fresh, mutable copy of the votes record. */
export function readVotes(state: StateReader): BftVotes {
  return decodeVotes(readVotesBytes(state));
}

export function writeVotes(state: StateWriter, votes: BftVotes): void {
  state.set(VOTES_KEY, codec.encode(bftVotesSchema, votes));
}

/** The parameters in force at `height`: the entry with the largest key ≤ height. */
export function readParameters(state: StateReader, height: number): BftParameters {
  const [entry] = state.iterate({ gte: parametersKey(0), lte: parametersKey(height), reverse: true, limit: 1 });
  if (!entry) throw new BftParametersNotFoundError(height);
  return codec.decode<BftParameters>(bftParametersSchema, entry.value);
}

/** All stored parameter sets with their first height, ascending. */
export function readAllParameters(state: StateReader): { height: number; parameters: BftParameters }[] {
  return state
    .iterate({ gte: parametersKey(0), lte: parametersKey(MAX_UINT32) })
    .map(({ key, value }) => ({ height: heightOfKey(key), parameters: codec.decode<BftParameters>(bftParametersSchema, value) }));
}

/**
 * A lookup of the parameters in force at any height that decodes each stored set once: BFT vote
 * counting asks for the parameters of every block in its window (up to 3 × batch size heights)
 * while only a handful of sets exist.
 */
export function parametersResolver(state: StateReader): (height: number) => BftParameters {
  const sets = state
    .iterate({ gte: parametersKey(0), lte: parametersKey(MAX_UINT32) })
    .map(({ key, value }) => ({ height: heightOfKey(key), value, decoded: undefined as BftParameters | undefined }));
  return (height: number) => {
    for (let i = sets.length - 1; i >= 0; i -= 1) {
      const set = sets[i] as (typeof sets)[number];
      if (set.height > height) continue;
      set.decoded ??= codec.decode<BftParameters>(bftParametersSchema, set.value);
      return set.decoded;
    }
    throw new BftParametersNotFoundError(height);
  };
}

/** Whether a parameter set starts exactly at `height` (lisk-sdk existBFTParameters). */
export function hasParametersAt(state: StateReader, height: number): boolean {
  return state.has(parametersKey(height));
}

export function writeParameters(state: StateWriter, height: number, parameters: BftParameters): void {
  state.set(parametersKey(height), codec.encode(bftParametersSchema, parameters));
}

/** The first height above `height` where new parameters start (lisk getNextHeightBFTParameters). */
export function nextParametersHeight(state: StateReader, height: number): number | undefined {
  const [entry] = state.iterate({ gte: parametersKey(height + 1), lte: parametersKey(MAX_UINT32), limit: 1 });
  return entry ? heightOfKey(entry.key) : undefined;
}

/**
 * Deletes parameter sets no longer needed: every set whose key is ≤ `height` except the newest of
 * them, which is still in force at `height` (lisk-sdk deleteBFTParameters).
 */
export function deleteParametersBelow(state: StateWriter, height: number): void {
  const entries = state.iterate({ gte: parametersKey(0), lte: parametersKey(height) });
  for (const entry of entries.slice(0, -1)) state.del(entry.key);
}
