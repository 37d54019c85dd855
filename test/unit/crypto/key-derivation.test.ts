import { describe, expect, it } from 'vitest';
import {
  HARDENED_OFFSET,
  blsPublicKeyFromSecretKey,
  blsSecretKeyFromPassphrase,
  deriveLegacyValidatorKeys,
  deriveValidatorKeys,
  eip2333DeriveChild,
  eip2333DeriveMaster,
  lisk32FromPublicKey,
  mnemonicToSeed,
  parseDerivationPath,
  popVerify,
} from '../../../src/crypto/index.js';
import { FormatError } from '../../../src/errors.js';

const PHRASE = 'target cancel solution recipe vague faint bomb convince pink vendor fresh patrol';
const decimal = (bytes: Buffer) => BigInt(`0x${bytes.toString('hex')}`).toString();

describe('derivation paths', () => {
  it('parses hardened and plain indexes', () => {
    expect(parseDerivationPath("m/44'/134'/0'")).toEqual([44 + HARDENED_OFFSET, 134 + HARDENED_OFFSET, HARDENED_OFFSET]);
    expect(parseDerivationPath('m/12381/134/4/0')).toEqual([12381, 134, 4, 0]);
    expect(parseDerivationPath('m/12381')).toEqual([12381]);
    expect(parseDerivationPath("m/2147483647'")).toEqual([0xffffffff]);
    expect(parseDerivationPath('m/4294967295')).toEqual([0xffffffff]);
  });

  it('rejects malformed paths with FormatError', () => {
    for (const path of [
      '',
      'm',
      'm/',
      "m/44''",
      'm/-1',
      'm/1.5',
      'n/1',
      'mx/1',
      "m/4'4",
      'm/01',
      "m/2147483648'",
      'm/4294967296',
      'm//1',
      ' m/1',
    ]) {
      expect(() => parseDerivationPath(path), path).toThrow(FormatError);
    }
  });
});

describe('BIP-39 seed', () => {
  it('is PBKDF2-HMAC-SHA512 without wordlist validation', () => {
    expect(mnemonicToSeed(PHRASE)).toHaveLength(64);
    // any string is accepted (the SDK tooling does not validate either)
    expect(mnemonicToSeed('not a bip39 phrase at all')).toHaveLength(64);
    expect(mnemonicToSeed(PHRASE, 'password').equals(mnemonicToSeed(PHRASE))).toBe(false);
    // NFKD: a precomposed é and e + combining acute give the same seed
    expect(mnemonicToSeed('caf\u00e9').equals(mnemonicToSeed('cafe\u0301'))).toBe(true);
  });
});

describe('EIP-2333 (LIP 0066)', () => {
  it('reproduces test case 0', () => {
    const seed = Buffer.from(
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
      'hex',
    );
    const master = eip2333DeriveMaster(seed);
    expect(decimal(master)).toBe('6083874454709270928345386274498605044986640685124978867557563392430687146096');
    expect(decimal(eip2333DeriveChild(master, 0))).toBe('20397789859736650942317412262472558107875392172444076792671091975210932703118');
  });

  it('reproduces the LIP 0066 BLS vector (m/12381)', () => {
    const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    expect(decimal(blsSecretKeyFromPassphrase(phrase, 'm/12381'))).toBe(
      '27531519788986738912817629815232258573173656766051821145387425994698573826996',
    );
  });
});

describe('validator keys (keys:create)', () => {
  it('derives the keys:create example for chainid 0, n 0', () => {
    const keys = deriveValidatorKeys(PHRASE, { chainIndex: 0, accountIndex: 0 });
    expect(keys.publicKey.toString('hex')).toBe('c6bae83af23540096ac58d5121b00f33be6f02f05df785766725acdd5d48be9d');
    expect(keys.address).toBe('lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2');
    expect(keys.generatorKey.toString('hex')).toBe('69f332687a37cb1273ca3560c5d3f4f5b7e88e48c4cbe6f26b8e08c2771d897f');
    expect(keys.blsPrivateKey.toString('hex')).toBe('33ffce733bc160da4cf3b570bd592c588a3ce0f58b11f6322cc2843555c96fd7');
    expect(keys.blsKey.toString('hex')).toBe(
      '99a0f476450800e46f649aace85e211c55263005f6c836533f6a8a17a95514e76f2344730b7a30c226f341321f9eb761',
    );
    expect(keys.blsProofOfPossession.toString('hex')).toBe(
      'b77fbd435fa5fe514841bab2ffed377000046b896433f511c45321a1a9e715ad7c99afa5df7028a92a991ee4d66d25db0711a238db1f50805be80c3927e29d371fdc4333258122f8070038b1dcda0ff8f64eff95851e1a83b9393c6f78ebcae8',
    );
    expect(popVerify(keys.blsKey, keys.blsProofOfPossession)).toBe(true);
  });

  it('puts the CLI chainid into the generator path (chainid 1)', () => {
    const keys = deriveValidatorKeys(PHRASE, { chainIndex: 1, accountIndex: 0 });
    expect(keys.generatorKeyPath).toBe("m/25519'/134'/1'/0'");
    expect(keys.generatorKey.toString('hex')).toBe('0899767862e47608f810957979122476246fb2e9690dd604ee2c8d32923bad86');
  });

  it('derives the --add-legacy entry', () => {
    const keys = deriveLegacyValidatorKeys(PHRASE, 0);
    expect(keys.keyPath).toBe('legacy');
    expect(keys.generatorKeyPath).toBe('legacy');
    expect(keys.publicKey.toString('hex')).toBe('0792fecbbecf6e7370f7a7b217a9d159f380d3ecd0f2760d7a55dd3e27e97184');
    expect(keys.generatorKey.equals(keys.publicKey)).toBe(true);
    expect(keys.address).toBe('lskr4npg3esse6duo56u2war7umuo8embs4cwrkaf');
    expect(lisk32FromPublicKey(keys.publicKey)).toBe(keys.address);
    expect(keys.blsKeyPath).toBe('m/12381/134/0/99999');
    expect(keys.blsKey.toString('hex')).toBe(
      'a7b2d03f07d6436e75705febf56daf2c5f19e0d0a42c7d589c2a6f3354e5d7745949c5d21c94193b5d51d74efd801d3c',
    );
    expect(blsPublicKeyFromSecretKey(keys.blsPrivateKey).equals(keys.blsKey)).toBe(true);
  });
});
