/**
 * BlockHeader (docs/protocol/blocks-and-transactions.md): the worked example's signing bytes,
 * signature, header bytes, ID and unsigned certificate; JSON round trip; bad input.
 */
import { describe, expect, it } from 'vitest';
import { BlockHeader } from '../../../src/chain/block-header.js';
import { signingBlockHeaderSchema } from '../../../src/chain/schemas.js';
import { codec, type Schema } from '../../../src/codec/index.js';
import { EMPTY_HASH, MESSAGE_TAG_BLOCK_HEADER, sha256, signData } from '../../../src/crypto/index.js';
import { DecodeError, InvalidBlockError } from '../../../src/errors.js';
import { CHAIN_ID, KEY, signHeader, unsignedHeaderProps } from './examples.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

const E3 = toHex(EMPTY_HASH);
const SIGNING_BYTES_HEX = [
  '0802',
  '108ae2cfaa06',
  '1801',
  `2220${'01'.repeat(32)}`,
  '2a14ed629c34f72e276ba38be61b6f289f84627f2b81',
  '32205a7e665c9c12891f2bb3924ed96d859e6a5e4381445dc05d7509a04f9c9caa08',
  `3a20${E3}`,
  `4220${E3}`,
  `4a20${'02'.repeat(32)}`,
  '5000',
  '5800',
  '6001',
  `6a20${'03'.repeat(32)}`,
  '7206080012001a00',
].join('');
const SIGNATURE_HEX =
  'a286d412a8a65a1977f86f76b2621310b4e418d893e95604b2221ca36259d4dea96cf1784bc1fb714057896cbd9ff173c019c7e24a7cafc599d61639d4f24403';
const BLOCK_ID_HEX = '28ab1aa5fd50508121662fd8a2b03de5609eeb840450ac294c6beb7ccd521af5';

/** `/consensus/unsignedCertificate` (LIP 0061). */
const unsignedCertificateSchema: Schema = {
  $id: '/test/consensus/unsignedCertificate',
  type: 'object',
  required: ['blockID', 'height', 'timestamp', 'stateRoot', 'validatorsHash'],
  properties: {
    blockID: { dataType: 'bytes', fieldNumber: 1 },
    height: { dataType: 'uint32', fieldNumber: 2 },
    timestamp: { dataType: 'uint32', fieldNumber: 3 },
    stateRoot: { dataType: 'bytes', fieldNumber: 4 },
    validatorsHash: { dataType: 'bytes', fieldNumber: 5 },
  },
};

describe('the header example', () => {
  const header = signHeader(new BlockHeader(unsignedHeaderProps()));

  it('has the 250 signing bytes', () => {
    const signingBytes = header.signingBytes();
    expect(signingBytes).toHaveLength(250);
    expect(toHex(signingBytes)).toBe(SIGNING_BYTES_HEX);
    // The prefix shortcut equals an encoding with the signing schema.
    expect(signingBytes.equals(codec.encode(signingBlockHeaderSchema, header.props()))).toBe(true);
    // The signature does not change what is signed.
    expect(new BlockHeader(unsignedHeaderProps()).signingBytes().equals(signingBytes)).toBe(true);
  });

  it('is signed under LSK_BH_ with the generator key', () => {
    expect(toHex(header.signature)).toBe(SIGNATURE_HEX);
    expect(toHex(signData(MESSAGE_TAG_BLOCK_HEADER, CHAIN_ID, Buffer.from(SIGNING_BYTES_HEX, 'hex'), KEY.privateKey))).toBe(SIGNATURE_HEX);
    expect(header.isSignatureValid(KEY.publicKey, CHAIN_ID)).toBe(true);
    expect(header.isSignatureValid(KEY.publicKey, Buffer.from('00000000', 'hex'))).toBe(false);
    expect(header.with({ timestamp: header.timestamp + 1 }).isSignatureValid(KEY.publicKey, CHAIN_ID)).toBe(false);
  });

  it('has the 316 header bytes and the block ID', () => {
    expect(header.bytes).toHaveLength(316);
    expect(toHex(header.bytes)).toBe(`${SIGNING_BYTES_HEX}7a40${SIGNATURE_HEX}`);
    expect(toHex(header.id)).toBe(BLOCK_ID_HEX);
    expect(toHex(sha256(header.bytes))).toBe(BLOCK_ID_HEX);
    expect(toHex(BlockHeader.fromBytes(header.bytes).id)).toBe(BLOCK_ID_HEX);
  });

  it('gives the unsigned certificate of the example', () => {
    const certificate = codec.encode(unsignedCertificateSchema, {
      blockID: header.id,
      height: header.height,
      timestamp: header.timestamp,
      stateRoot: header.stateRoot,
      validatorsHash: header.validatorsHash,
    });
    expect(toHex(certificate)).toBe(`0a20${BLOCK_ID_HEX}1001188ae2cfaa062220${'02'.repeat(32)}2a20${'03'.repeat(32)}`);
  });

  it('round-trips through JSON, with id last and the address in lisk32', () => {
    const json = header.toJSON();
    expect(json.id).toBe(BLOCK_ID_HEX);
    expect(json.generatorAddress).toBe('lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2');
    expect(json.aggregateCommit).toEqual({ height: 0, aggregationBits: '', certificateSignature: '' });
    expect(Object.keys(json)).toEqual([
      'version',
      'timestamp',
      'height',
      'previousBlockID',
      'stateRoot',
      'assetRoot',
      'eventRoot',
      'transactionRoot',
      'validatorsHash',
      'aggregateCommit',
      'generatorAddress',
      'maxHeightPrevoted',
      'maxHeightGenerated',
      'impliesMaxPrevotes',
      'signature',
      'id',
    ]);
    expect(BlockHeader.fromJSON(json).bytes.equals(header.bytes)).toBe(true);
    // A stale `id` in the JSON is ignored: the ID is always recomputed.
    const stale = { ...json, id: '00'.repeat(32) };
    expect(toHex(BlockHeader.fromJSON(stale).id)).toBe(BLOCK_ID_HEX);
  });

  it('signing bytes stay a prefix for long signatures (2-byte length prefix)', () => {
    const odd = header.with({ signature: Buffer.alloc(200, 7) });
    expect(odd.signingBytes().equals(codec.encode(signingBlockHeaderSchema, odd.props()))).toBe(true);
  });
});

describe('BlockHeader bad input', () => {
  const header = signHeader(new BlockHeader(unsignedHeaderProps()));

  it('throws DecodeError, and only DecodeError, for every truncation of the header bytes', () => {
    for (let length = 0; length < header.bytes.length; length += 1) {
      expect(() => BlockHeader.fromBytes(header.bytes.subarray(0, length)), `length ${length}`).toThrow(DecodeError);
    }
  });

  it('throws DecodeError for trailing bytes and unknown fields', () => {
    expect(() => BlockHeader.fromBytes(Buffer.concat([header.bytes, Buffer.from([0])]))).toThrow(DecodeError);
    expect(() => BlockHeader.fromBytes(Buffer.concat([header.bytes, Buffer.from('8001', 'hex')]))).toThrow(DecodeError);
  });

  it('validate() refuses an empty previousBlockID, a short signature and a 19-byte generator address', () => {
    expect(() => header.validate()).not.toThrow();
    const cases = [
      { changes: { previousBlockID: Buffer.alloc(0) }, message: /Previous block id/ },
      { changes: { signature: Buffer.alloc(63) }, message: /Signature length must be 64/ },
      { changes: { signature: Buffer.alloc(0) }, message: /Signature length must be 64/ },
      { changes: { generatorAddress: Buffer.alloc(19) }, message: /generatorAddress/ },
    ];
    for (const { changes, message } of cases) {
      const bad = header.with(changes);
      expect(() => bad.validate()).toThrow(InvalidBlockError);
      expect(() => bad.validate()).toThrow(message);
      try {
        bad.validate();
      } catch (error) {
        expect((error as InvalidBlockError).reason).toBe('schema');
        expect((error as InvalidBlockError).height).toBe(1);
      }
    }
  });
});
