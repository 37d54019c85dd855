/**
 * Transaction (LIP 0068): the worked example of docs/protocol/blocks-and-transactions.md, the LIP
 * 0068 appendix vector, static validation failures, bad bytes, and the client minimum fee.
 */
import { describe, expect, it } from 'vitest';
import { computeMinFee } from '../../../src/chain/min-fee.js';
import { MAX_PARAMS_SIZE, Transaction } from '../../../src/chain/transaction.js';
import { codec } from '../../../src/codec/index.js';
import { MESSAGE_TAG_TRANSACTION, sha256, taggedDigest, verifyData } from '../../../src/crypto/index.js';
import { DecodeError, ValidationError } from '../../../src/errors.js';
import { CHAIN_ID, KEY, signedTransfer, transferParamsSchema, unsignedTransfer } from './examples.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

const PARAMS_HEX = '0a080400000000000000' + '1080c2d72f' + '1a14ed629c34f72e276ba38be61b6f289f84627f2b81' + '22026869';
const SIGNING_BYTES_HEX = `0a05746f6b656e12087472616e73666572180020c09a0c2a20${toHex(KEY.publicKey)}3229${PARAMS_HEX}`;
const SIGNATURE_HEX =
  '6f8b18b9c9da6761050dbf78d3af083b46b3c80e0636767fcf5381be1e7cb24115a74dd21b515b9086b1b94103ae648bbbeb88279bcfde1224e750f5a4d8910d';
const ID_HEX = '1ba36042c1303e116a782a5108065c27bc89d7ba198097ed344a32567477c250';

describe('the token transfer example', () => {
  const tx = signedTransfer();

  it('encodes the params', () => {
    expect(toHex(tx.params)).toBe(PARAMS_HEX);
  });

  it('has the signing bytes, their tagged digest and the signature', () => {
    expect(toHex(unsignedTransfer().bytes)).toBe(SIGNING_BYTES_HEX);
    expect(toHex(tx.signingBytes())).toBe(SIGNING_BYTES_HEX);
    expect(toHex(taggedDigest(MESSAGE_TAG_TRANSACTION, CHAIN_ID, tx.signingBytes()))).toBe(
      '016f5074aad8522bfd7c590c73e5f65335ac5671c5d0d9bc6a3bcccd98b76805',
    );
    expect(tx.signatures.map(toHex)).toEqual([SIGNATURE_HEX]);
    expect(verifyData(MESSAGE_TAG_TRANSACTION, CHAIN_ID, tx.signingBytes(), tx.signatures[0] as Buffer, KEY.publicKey)).toBe(true);
  });

  it('has 166 bytes, the ID and minimum fee 166000', () => {
    expect(tx.size).toBe(166);
    expect(toHex(tx.bytes)).toBe(`${SIGNING_BYTES_HEX}3a40${SIGNATURE_HEX}`);
    expect(toHex(tx.id)).toBe(ID_HEX);
    expect(toHex(sha256(tx.bytes))).toBe(ID_HEX);
    expect(computeMinFee(tx)).toBe(166_000n);
    expect(toHex(tx.senderAddress())).toBe('ed629c34f72e276ba38be61b6f289f84627f2b81');
  });

  it('round-trips through bytes and JSON', () => {
    const decoded = Transaction.fromBytes(tx.bytes);
    expect(decoded.bytes.equals(tx.bytes)).toBe(true);
    expect(toHex(decoded.id)).toBe(ID_HEX);
    const json = tx.toJSON();
    expect(json).toEqual({
      module: 'token',
      command: 'transfer',
      params: PARAMS_HEX,
      nonce: '0',
      fee: '200000',
      senderPublicKey: toHex(KEY.publicKey),
      signatures: [SIGNATURE_HEX],
      id: ID_HEX,
    });
    expect(Object.keys(json)).toEqual(['module', 'command', 'params', 'nonce', 'fee', 'senderPublicKey', 'signatures', 'id']);
    expect(Transaction.fromJSON(json).bytes.equals(tx.bytes)).toBe(true);
  });
});

describe('LIP 0068 appendix vector', () => {
  const tx = new Transaction({
    module: 'token',
    command: 'transfer',
    nonce: 5n,
    fee: 1_216_299_416n,
    senderPublicKey: Buffer.from('43e59548e356f581251041dc922b8e27b7bc5fd37b33e7939422db82e29c9d73', 'hex'),
    params: codec.encode(transferParamsSchema, {
      tokenID: Buffer.alloc(8),
      amount: 123_986_407_700n,
      recipientAddress: Buffer.from('2ca4b4e9924547c48c04300b320be84e8cd81e4a', 'hex'),
      data: 'Odi et amo. Quare id faciam, fortasse requiris.',
    }),
    signatures: [
      Buffer.from(
        '7164221c518617704a0d41d945d5ae87d1af471e911be35988704eee82c45aef37078489685808ed4369aa892b09a3845e81c821f783e6d4519439774ba65603',
        'hex',
      ),
      Buffer.from(
        '54bf7d19959d3f7d39fd8aec6874063b23ce95cfa2cc1a5e5b0fc98e3b6e122153de1933cd7661ef094e23ad459ff46b42ed267a9d56045c0b59fa1a8d4c6b0e',
        'hex',
      ),
    ],
  });
  const mainnet = Buffer.from('00000000', 'hex');

  it('has the 149-byte unsigned message, both signatures and the ID', () => {
    expect(toHex(tx.signingBytes())).toBe(
      '0a05746f6b656e12087472616e736665721805209883fdc3042a2043e59548e356f581251041dc922b8e27b7bc5fd37b33e7939422db82e29c9d7332580a0800000000000000001094e2a9f1cd031a142ca4b4e9924547c48c04300b320be84e8cd81e4a222f4f646920657420616d6f2e2051756172652069642066616369616d2c20666f7274617373652072657175697269732e',
    );
    expect(tx.signingBytes()).toHaveLength(149);
    const keys = [
      '43e59548e356f581251041dc922b8e27b7bc5fd37b33e7939422db82e29c9d73',
      '5f40d1f7a4e57ff921f5b06788877e85070f1f7bc382d293a43b79935048aed3',
    ];
    tx.signatures.forEach((signature, i) => {
      expect(verifyData(MESSAGE_TAG_TRANSACTION, mainnet, tx.signingBytes(), signature, Buffer.from(keys[i] as string, 'hex'))).toBe(true);
    });
    expect(toHex(tx.id)).toBe('b3517c097df5b267ec9e12bf77a0d07faf12a262aa1dc454abfc9903461ac716');
  });

  it('keeps the signing bytes a prefix with empty signatures in the list', () => {
    const withEmpty = tx.withSignatures([Buffer.alloc(0), tx.signatures[1] as Buffer, Buffer.alloc(0)]);
    expect(withEmpty.signingBytes().equals(tx.signingBytes())).toBe(true);
    expect(withEmpty.withSignatures([]).bytes.equals(tx.signingBytes())).toBe(true);
  });
});

describe('Transaction.validate failures', () => {
  const valid = signedTransfer();
  const variant = (changes: Partial<ConstructorParameters<typeof Transaction>[0]>): Transaction =>
    new Transaction({ ...valid, signatures: valid.signatures, ...changes });

  const failures: { name: string; tx: Transaction; message: RegExp }[] = [
    { name: 'module name with a dash', tx: variant({ module: 'tok-en' }), message: /\.module: invalid module name "tok-en"/ },
    { name: 'command name with a space', tx: variant({ command: 'trans fer' }), message: /\.command: invalid command name "trans fer"/ },
    { name: 'empty module name', tx: variant({ module: '' }), message: /module/ },
    { name: 'module name of 33 characters', tx: variant({ module: 'a'.repeat(33) }), message: /module/ },
    {
      name: 'params above 14 KiB',
      tx: variant({ params: Buffer.alloc(MAX_PARAMS_SIZE + 1) }),
      message: /\.params: exceeds the maximum size of 14336 bytes/,
    },
    { name: 'no signatures', tx: variant({ signatures: [] }), message: /\.signatures: must not be empty/ },
    {
      name: 'a 63-byte signature',
      tx: variant({ signatures: [Buffer.alloc(63)] }),
      message: /\.signatures\[0\]: must be empty or 64 bytes/,
    },
    {
      name: 'a 65-byte second signature',
      tx: variant({ signatures: [Buffer.alloc(64), Buffer.alloc(65)] }),
      message: /\.signatures\[1\]: must be empty or 64 bytes/,
    },
    { name: 'a 31-byte sender public key', tx: variant({ senderPublicKey: Buffer.alloc(31) }), message: /senderPublicKey/ },
  ];

  it.each(failures)('refuses $name with a clear ValidationError', ({ tx, message }) => {
    expect(() => tx.validate()).toThrow(ValidationError);
    expect(() => tx.validate()).toThrow(message);
  });

  it('accepts params of exactly 14 KiB, empty signatures next to a real one, and the example', () => {
    expect(() => valid.validate()).not.toThrow();
    expect(() => variant({ params: Buffer.alloc(MAX_PARAMS_SIZE) }).validate()).not.toThrow();
    expect(() => variant({ signatures: [Buffer.alloc(0), Buffer.alloc(64)] }).validate()).not.toThrow();
  });

  it('lists every problem at once', () => {
    const tx = variant({ module: 'a-b', signatures: [] });
    try {
      tx.validate();
      expect.unreachable('validate must throw');
    } catch (error) {
      expect((error as ValidationError).errors).toHaveLength(2);
    }
  });
});

describe('Transaction bad bytes', () => {
  const tx = signedTransfer();

  it('every truncation throws DecodeError, except the signature-less prefix (a valid unsigned encoding)', () => {
    const signingLength = tx.signingBytes().length;
    for (let length = 0; length < tx.bytes.length; length += 1) {
      const prefix = tx.bytes.subarray(0, length);
      if (length === signingLength) {
        expect(Transaction.fromBytes(prefix).signatures).toEqual([]);
        continue;
      }
      expect(() => Transaction.fromBytes(prefix), `length ${length}`).toThrow(DecodeError);
    }
  });

  it('throws DecodeError for trailing bytes and for garbage', () => {
    expect(() => Transaction.fromBytes(Buffer.concat([tx.bytes, Buffer.from([0x3a])]))).toThrow(DecodeError);
    expect(() => Transaction.fromBytes(Buffer.from('ffffffffffffffffffffff', 'hex'))).toThrow(DecodeError);
    expect(() => Transaction.fromBytes(Buffer.alloc(0))).toThrow(DecodeError);
  });
});

describe('computeMinFee (lisk-transactions computeMinFee)', () => {
  const tx = unsignedTransfer();

  it('counts 64-byte placeholder signatures and empty ones', () => {
    const one = computeMinFee(tx);
    // Each extra 64-byte signature adds 66 bytes (key, length, signature); an empty one 2.
    expect(computeMinFee(tx, { numberOfSignatures: 2 })).toBe(one + 66_000n);
    expect(computeMinFee(tx, { numberOfSignatures: 1, numberOfEmptySignatures: 2 })).toBe(one + 4_000n);
    expect(computeMinFee(tx, { minFeePerByte: 0 })).toBe(0n);
  });

  it('equals 1000 × size of the transaction carrying that fee', () => {
    for (const additionalFee of [0n, 5_000_000n, 1_000_000_000n]) {
      const fee = computeMinFee(tx, { additionalFee });
      const sent = new Transaction({ ...tx, fee, signatures: [Buffer.alloc(64)] });
      expect(fee).toBe(BigInt(sent.size) * 1000n + additionalFee);
    }
  });

  it('raises the fee when its own varint grows', () => {
    // An additional fee just below a varint boundary: the byte fee pushes the fee over it, so the
    // size grows by one byte and the fee is recomputed (the loop of lisk-transactions).
    const sizeAtFeeZero = new Transaction({ ...tx, fee: 0n, signatures: [Buffer.alloc(64)] }).size;
    const boundary = 2n ** 21n; // 3-byte varints end below 2^21
    const additionalFee = boundary - BigInt((sizeAtFeeZero + 2) * 1000) + 1n;
    const fee = computeMinFee(tx, { additionalFee });
    expect(fee).toBeGreaterThanOrEqual(boundary);
    expect(fee).toBe(BigInt((sizeAtFeeZero - 1 + 4) * 1000) + additionalFee);
  });
});
