/**
 * transaction:create offline (lisk-core transaction:create): the signed bytes equal a transaction
 * built and signed independently, --json decodes the params, params come from --params (numbers
 * accepted for uint64), a file, or prompts (scalars, arrays of scalars, arrays of objects), and
 * lisk-core's errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { Transaction } from '../../../src/chain/transaction.js';
import { codec, type Schema } from '../../../src/codec/index.js';
import { UsageError } from '../../../src/cli/command.js';
import { transactionCreateCommand } from '../../../src/cli/commands/transaction-create.js';
import { encodeParams, promptParams } from '../../../src/cli/support/command-params.js';
import { Prompter } from '../../../src/cli/support/prompt.js';
import {
  decodeLisk32,
  ed25519KeyPairFromPassphrase,
  legacyKeyPairFromPassphrase,
  MESSAGE_TAG_TRANSACTION,
  signData,
} from '../../../src/crypto/index.js';
import { transferParamsSchema } from '../../../src/modules/token/schemas.js';
import { captureIO } from './support.js';

const PASSPHRASE =
  'balcony timber spider replace olympic innocent obvious slogan select tunnel health adjust setup fork scrub lion coconut wife ice color process access minute palace';
const RECIPIENT = 'lsks4hkwer2d588ee4joya3rca9tgb4whqo6vedxz';
const CHAIN = '04000000';
const OFFLINE = ['--offline', '--chain-id', CHAIN, '--nonce', '7'];
const dir = mkdtempSync(join(tmpdir(), 'basalt-tx-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectedTransfer(keyPath: string | 'legacy', amount: bigint, data: string): Transaction {
  const keys = keyPath === 'legacy' ? legacyKeyPairFromPassphrase(PASSPHRASE) : ed25519KeyPairFromPassphrase(PASSPHRASE, keyPath);
  const params = codec.encode(transferParamsSchema, {
    tokenID: Buffer.from('0400000000000000', 'hex'),
    amount,
    recipientAddress: decodeLisk32(RECIPIENT),
    data,
  });
  const unsigned = new Transaction({
    module: 'token',
    command: 'transfer',
    nonce: 7n,
    fee: 200000n,
    senderPublicKey: keys.publicKey,
    params,
    signatures: [],
  });
  return unsigned.withSignatures([signData(MESSAGE_TAG_TRANSACTION, Buffer.from(CHAIN, 'hex'), unsigned.signingBytes(), keys.privateKey)]);
}

async function create(args: string[], input = '') {
  const io = captureIO(input);
  const code = await transactionCreateCommand.run(args, io);
  return { code, io, lines: io.out().trim().split('\n') };
}

describe('transaction:create --offline', () => {
  it('signs exactly what an independently built transfer is, and --json decodes its params', async () => {
    const params = JSON.stringify({ tokenID: '0400000000000000', amount: 100000000, recipientAddress: RECIPIENT, data: 'hi' });
    const { code, io, lines } = await create(['token', 'transfer', '200000', '--params', params, '--json', ...OFFLINE], `${PASSPHRASE}\n`);
    expect(code).toBe(0);
    const expected = expectedTransfer("m/44'/134'/0'", 100000000n, 'hi');
    expect(JSON.parse(lines[0] as string)).toEqual({ transaction: expected.bytes.toString('hex') });
    expect(JSON.parse(lines[1] as string)).toEqual({
      transaction: {
        module: 'token',
        command: 'transfer',
        nonce: '7',
        fee: '200000',
        senderPublicKey: expected.senderPublicKey.toString('hex'),
        signatures: [expected.signatures[0]?.toString('hex')],
        params: { tokenID: '0400000000000000', amount: '100000000', recipientAddress: RECIPIENT, data: 'hi' },
        id: expected.id.toString('hex'),
      },
    });
    expect(io.err()).toBe('Please enter passphrase: \n');
  });

  it('asks for each param when --params is absent; "legacy" derives the sha256 key; warns on a low fee', async () => {
    const answers = [PASSPHRASE, '0400000000000000', '42', RECIPIENT, 'typed'].join('\n');
    const { lines, io } = await create(['token', 'transfer', '200000', '--key-derivation-path', 'legacy', ...OFFLINE], `${answers}\n`);
    expect(JSON.parse(lines[0] as string)).toEqual({ transaction: expectedTransfer('legacy', 42n, 'typed').bytes.toString('hex') });
    expect(io.err()).toBe(
      'Please enter passphrase: \nPlease enter: tokenID: Please enter: amount: Please enter: recipientAddress: Please enter: data: ',
    );
    const low = await create(
      [
        'token',
        'transfer',
        '1000',
        ...OFFLINE,
        '--params',
        JSON.stringify({ tokenID: '0400000000000000', amount: '1', recipientAddress: RECIPIENT, data: '' }),
      ],
      `${PASSPHRASE}\n`,
    );
    expect(low.io.err()).toMatch(
      /Warning: FEE 1000 is below the minimum fee \d+ for this transaction's size; the node will refuse it\.\n$/,
    );
  });

  it('reads params from a .json file and builds unsigned transactions for --sender-public-key', async () => {
    const file = join(dir, 'params.json');
    writeFileSync(file, JSON.stringify({ tokenID: '0400000000000000', amount: '5', recipientAddress: RECIPIENT, data: '' }));
    const sender = ed25519KeyPairFromPassphrase(PASSPHRASE, "m/44'/134'/0'").publicKey.toString('hex');
    const { lines } = await create([
      'token',
      'transfer',
      '200000',
      '--file',
      file,
      '--no-signature',
      '--sender-public-key',
      sender,
      ...OFFLINE,
    ]);
    const transaction = Transaction.fromBytes(Buffer.from((JSON.parse(lines[0] as string) as { transaction: string }).transaction, 'hex'));
    expect(transaction.signatures).toEqual([]);
    expect(transaction.senderPublicKey.toString('hex')).toBe(sender);
    expect(transaction.nonce).toBe(7n);
  });

  it('refuses what lisk-core refuses, with its messages', async () => {
    const params = JSON.stringify({ tokenID: '0400000000000000', amount: '1', recipientAddress: RECIPIENT, data: '' });
    await expect(create(['token', 'transfer', '1', '--offline', '--chain-id', CHAIN])).rejects.toThrow(
      '--offline needs --chain-id and --nonce.',
    );
    await expect(create(['token', 'transfer', '1', '--send', ...OFFLINE])).rejects.toThrow(UsageError);
    await expect(create(['token', 'nothing', '1', '--params', params, ...OFFLINE])).rejects.toThrow(
      'Module: token Command: nothing is not registered.',
    );
    await expect(create(['tokens', 'transfer', '1', '--params', params, ...OFFLINE])).rejects.toThrow('Module: tokens is not registered.');
    await expect(create(['token', 'transfer', '-1', ...OFFLINE])).rejects.toThrow(UsageError);
    await expect(create(['token', 'transfer', '1', '--file', join(dir, 'params.txt'), ...OFFLINE])).rejects.toThrow('Not a JSON file.');
    await expect(create(['token', 'transfer', '1', '--file', join(dir, 'missing.json'), ...OFFLINE])).rejects.toThrow(
      'No such file or directory.',
    );
    await expect(create(['token', 'transfer', '1', '-k', 'x/1', '--params', params, ...OFFLINE])).rejects.toThrow(UsageError);
    await expect(create(['token', 'transfer', '1', '--params', '{"amount":"x"}', ...OFFLINE], `${PASSPHRASE}\n`)).rejects.toThrow(
      'Invalid params',
    );
    await expect(create(['token', 'transfer', '1', '--no-signature', ...OFFLINE])).rejects.toThrow(
      '--no-signature needs --sender-public-key',
    );
  });
});

describe('command params', () => {
  const stakeSchema: Schema = {
    type: 'object',
    required: ['stakes'],
    properties: {
      stakes: {
        type: 'array',
        fieldNumber: 1,
        items: {
          type: 'object',
          required: ['validatorAddress', 'amount'],
          properties: {
            validatorAddress: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
            amount: { dataType: 'sint64', fieldNumber: 2 },
          },
        },
      },
    },
  };
  const multisigSchema: Schema = {
    type: 'object',
    required: ['numberOfSignatures', 'mandatoryKeys'],
    properties: {
      numberOfSignatures: { dataType: 'uint32', fieldNumber: 1 },
      mandatoryKeys: { type: 'array', fieldNumber: 2, items: { dataType: 'bytes' } },
      flag: { dataType: 'boolean', fieldNumber: 3 },
    },
  };
  const answersFrom = (text: string) => {
    const pipe = new PassThrough();
    pipe.end(text);
    let asked = '';
    const out = new PassThrough();
    out.on('data', (chunk) => (asked += String(chunk)));
    return { prompter: new Prompter(pipe, out), asked: () => asked };
  };

  it('asks one line per item of an array of objects until the answer is not "y"', async () => {
    const { prompter, asked } = answersFrom(`${RECIPIENT},1000\ny\n${RECIPIENT},-5\nn\n`);
    const json = await promptParams(stakeSchema, prompter);
    expect(json).toEqual({
      stakes: [
        { validatorAddress: RECIPIENT, amount: '1000' },
        { validatorAddress: RECIPIENT, amount: '-5' },
      ],
    });
    await Promise.resolve();
    expect(asked()).toBe(
      'Please enter: stakes(validatorAddress,amount): Want to enter another stakes? (y/N) Please enter: stakes(validatorAddress,amount): Want to enter another stakes? (y/N) ',
    );
    expect(encodeParams(stakeSchema, json).value).toEqual({
      stakes: [
        { validatorAddress: decodeLisk32(RECIPIENT), amount: 1000n },
        { validatorAddress: decodeLisk32(RECIPIENT), amount: -5n },
      ],
    });
  });

  it('splits arrays of scalars on commas, types uint32 and booleans, accepts empty arrays', async () => {
    const { prompter } = answersFrom('2\naa,bbcc\ntrue\n');
    const json = await promptParams(multisigSchema, prompter);
    expect(json).toEqual({ numberOfSignatures: 2, mandatoryKeys: ['aa', 'bbcc'], flag: true });
    expect(
      encodeParams(multisigSchema, json).bytes.equals(
        codec.encode(multisigSchema, {
          numberOfSignatures: 2,
          mandatoryKeys: [Buffer.from('aa', 'hex'), Buffer.from('bbcc', 'hex')],
          flag: true,
        }),
      ),
    ).toBe(true);
    const empty = await promptParams(multisigSchema, answersFrom('1\n\nfalse\n').prompter);
    expect(empty).toEqual({ numberOfSignatures: 1, mandatoryKeys: [], flag: false });
  });

  it('encodeParams names the field of a bad value and refuses non-objects', () => {
    expect(() => encodeParams(stakeSchema, [])).toThrow('The params must be a JSON object.');
    expect(() => encodeParams(stakeSchema, { stakes: [{ validatorAddress: 'lsk', amount: '1' }] })).toThrow(/Invalid params: .*stakes/);
    expect(() => encodeParams(multisigSchema, { numberOfSignatures: 1 })).toThrow(/mandatoryKeys/);
  });
});
