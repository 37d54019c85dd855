/**
 * Real validator keys for the validators tests: the genesis validators of the dev chain
 * (chains/dev/genesis_assets.json, pos asset), whose proofs of possession verify.
 */
import { decodeLisk32 } from '../../../../src/crypto/index.js';
import { hex, loadJsonFixture } from '../../../support/fixtures.js';

export interface GenesisValidatorKeys {
  readonly lisk32: string;
  readonly address: Buffer;
  readonly generatorKey: Buffer;
  readonly blsKey: Buffer;
  readonly proofOfPossession: Buffer;
}

interface GenesisAssets {
  assets: { module: string; data: Record<string, unknown> }[];
}

interface PosGenesisValidator {
  address: string;
  generatorKey: string;
  blsKey: string;
  proofOfPossession: string;
}

/** The 103 genesis validators in the asset's order (ascending address). */
export function genesisValidators(): GenesisValidatorKeys[] {
  const { assets } = loadJsonFixture<GenesisAssets>('chains/dev/genesis_assets.json');
  const pos = assets.find((asset) => asset.module === 'pos');
  if (pos === undefined) throw new Error('genesis_assets.json has no pos asset');
  return (pos.data.validators as PosGenesisValidator[]).map((validator) => ({
    lisk32: validator.address,
    address: decodeLisk32(validator.address),
    generatorKey: hex(validator.generatorKey),
    blsKey: hex(validator.blsKey),
    proofOfPossession: hex(validator.proofOfPossession),
  }));
}

/** Expected generatorKeyRegistration data: {generatorKey#1 bytes, result#2 uint32}. */
export function generatorEventData(generatorKey: Buffer, result: number): Buffer {
  return Buffer.concat([Buffer.from([0x0a, 0x20]), generatorKey, Buffer.from([0x10, result])]);
}

/** Expected blsKeyRegistration data: {blsKey#1, proofOfPossession#2, result#3 uint32}. */
export function blsEventData(blsKey: Buffer, proofOfPossession: Buffer, result: number): Buffer {
  return Buffer.concat([Buffer.from([0x0a, 0x30]), blsKey, Buffer.from([0x12, 0x60]), proofOfPossession, Buffer.from([0x18, result])]);
}
