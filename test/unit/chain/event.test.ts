/**
 * Events (LIP 0065): the example of docs/protocol/state-and-events.md: encodings, SMT keys and
 * values, the event root over them and its inclusion / non-inclusion proofs; JSON form; bad bytes.
 */
import { describe, expect, it } from 'vitest';
import { decodeEvent, encodeEvent, eventSmtLeaves, eventToJSON, type EventProps } from '../../../src/chain/event.js';
import { eventSchema, standardEventDataSchema } from '../../../src/chain/schemas.js';
import { codec } from '../../../src/codec/index.js';
import { sha256 } from '../../../src/crypto/index.js';
import { DecodeError } from '../../../src/errors.js';
import {
  EMPTY_HASH,
  EVENT_KEY_LENGTH,
  InMemorySmtNodeStore,
  SparseMerkleTree,
  computeEventRoot,
  verify,
} from '../../../src/merkle/index.js';
import { ADDRESS, signedTransfer } from './examples.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

const txID = signedTransfer().id;
const txTopic = Buffer.concat([Buffer.from([4]), txID]);

const transferEvent: EventProps = {
  module: 'token',
  name: 'transferEvent',
  data: Buffer.from('0a14', 'hex'),
  topics: [txTopic, ADDRESS],
  height: 1,
  index: 3,
};

const resultEvent: EventProps = {
  module: 'token',
  name: 'commandExecutionResult',
  data: codec.encode(standardEventDataSchema, { success: true }),
  topics: [txTopic],
  height: 1,
  index: 4,
};

const TRANSFER_EVENT_HEX = [
  '0a05746f6b656e',
  '120d7472616e736665724576656e74',
  '1a020a14',
  `2221${toHex(txTopic)}`,
  `2214${toHex(ADDRESS)}`,
  '2801',
  '3003',
].join('');

describe('the event example of docs/protocol/state-and-events.md', () => {
  it('encodes the transfer event, with the SMT value H(encoding) and one key per topic', () => {
    expect(toHex(txID)).toBe('1ba36042c1303e116a782a5108065c27bc89d7ba198097ed344a32567477c250');
    const encoded = encodeEvent(transferEvent);
    expect(toHex(encoded)).toBe(TRANSFER_EVENT_HEX);
    const leaves = eventSmtLeaves(transferEvent);
    expect(leaves.map((leaf) => toHex(leaf.key))).toEqual(['e84c06b8b83f51d00000000c', '4ef2994d9263b9a90000000d']);
    for (const leaf of leaves) {
      expect(toHex(leaf.value)).toBe('d5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae');
      expect(leaf.value.equals(sha256(encoded))).toBe(true);
      expect(leaf.key).toHaveLength(EVENT_KEY_LENGTH);
    }
    // The pre-computed encoding gives the same leaves.
    expect(eventSmtLeaves(transferEvent, encoded)).toEqual(leaves);
  });

  it('encodes the default result event at index 4', () => {
    expect(toHex(resultEvent.data)).toBe('0801');
    expect(toHex(encodeEvent(resultEvent))).toBe(
      `0a05746f6b656e1216636f6d6d616e64457865637574696f6e526573756c741a020801${`2221${toHex(txTopic)}`}28013004`,
    );
    const [leaf] = eventSmtLeaves(resultEvent);
    expect(toHex(leaf?.key as Buffer)).toBe('e84c06b8b83f51d000000010');
    expect(toHex(leaf?.value as Buffer)).toBe('fea71b2334fd8a9318c043e55775a2c3972315ea10a10d504e19eaf847ee56ea');
  });

  const leaves = [...eventSmtLeaves(transferEvent), ...eventSmtLeaves(resultEvent)];
  const ROOT = 'a4b34ef944c218d17e68da26bd3ebf003741a292233b06bf9013aa643804c98f';

  it('gives the event root over the three pairs', () => {
    expect(toHex(computeEventRoot(leaves))).toBe(ROOT);
    // Order of insertion does not matter; no events give the empty hash.
    expect(toHex(computeEventRoot([...leaves].reverse()))).toBe(ROOT);
    expect(computeEventRoot([]).equals(EMPTY_HASH)).toBe(true);
  });

  it('proves inclusion and non-inclusion as the example lists', () => {
    const store = new InMemorySmtNodeStore();
    const tree = new SparseMerkleTree(store, EVENT_KEY_LENGTH);
    const update = tree.updateEntries(EMPTY_HASH, leaves);
    store.apply(update);
    expect(toHex(update.root)).toBe(ROOT);

    const included = Buffer.from('e84c06b8b83f51d00000000c', 'hex');
    const inclusion = tree.prove(update.root, [included]);
    expect(inclusion.siblingHashes.map(toHex)).toEqual([
      'd1948f38318ebd9096bb33f18e1a21dba2bc8d2c58c3f46acf3bcb31b273d577',
      '0b763435153afca86a774fead5158f333784f5d35e622084aa5f65b867a03526',
    ]);
    expect(inclusion.queries.map((query) => ({ key: toHex(query.key), value: toHex(query.value), bitmap: toHex(query.bitmap) }))).toEqual([
      {
        key: toHex(included),
        value: 'd5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae',
        bitmap: '080000000000000000000001',
      },
    ]);
    expect(verify([included], inclusion, update.root, EVENT_KEY_LENGTH)).toBe(true);

    const absent = Buffer.alloc(12);
    const nonInclusion = tree.prove(update.root, [absent]);
    expect(nonInclusion.siblingHashes.map(toHex)).toEqual(['9c405382df24f5b43ff2736ae3a4d31c389f763840f0602d7e4b6c3c66073e06']);
    expect(
      nonInclusion.queries.map((query) => ({ key: toHex(query.key), value: toHex(query.value), bitmap: toHex(query.bitmap) })),
    ).toEqual([
      { key: '4ef2994d9263b9a90000000d', value: 'd5208e3e24e51372959003ae4b66dbfa295fdceb6406836532c6d07b284b40ae', bitmap: '01' },
    ]);
    expect(verify([absent], nonInclusion, update.root, EVENT_KEY_LENGTH)).toBe(true);
  });
});

describe('event keys, JSON and bytes', () => {
  it('puts (index << 2) + topic position in the last 4 key bytes, also at the largest index', () => {
    const event: EventProps = {
      ...transferEvent,
      topics: [Buffer.from([0]), Buffer.from([1]), Buffer.from([2]), Buffer.from([3])],
      index: 2 ** 30 - 1,
    };
    const keys = eventSmtLeaves(event).map((leaf) => leaf.key.readUInt32BE(8));
    expect(keys).toEqual([0xfffffffc, 0xfffffffd, 0xfffffffe, 0xffffffff]);
    expect(eventSmtLeaves({ ...event, topics: [] })).toEqual([]);
  });

  it('has the chain_getEvents JSON form, keys in lisk-sdk order', () => {
    const json = eventToJSON(transferEvent);
    expect(json).toEqual({
      data: '0a14',
      index: 3,
      module: 'token',
      name: 'transferEvent',
      topics: [toHex(txTopic), toHex(ADDRESS)],
      height: 1,
    });
    expect(Object.keys(json)).toEqual(['data', 'index', 'module', 'name', 'topics', 'height']);
    expect(encodeEvent(codec.fromJSON<EventProps>(eventSchema, json)).equals(encodeEvent(transferEvent))).toBe(true);
  });

  it('decodes its own encoding and refuses truncated bytes with DecodeError', () => {
    const encoded = encodeEvent(transferEvent);
    expect(decodeEvent(encoded)).toEqual({ ...transferEvent, topics: [...transferEvent.topics] });
    for (let length = 0; length < encoded.length; length += 1) {
      expect(() => decodeEvent(encoded.subarray(0, length)), `length ${length}`).toThrow(DecodeError);
    }
  });
});
