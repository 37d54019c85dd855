/** Shapes of the generator RPC answers the generator:* commands read, their prompt text and status update. */
import type { NodeClient } from './node-client.js';
import type { PromptIO } from './prompt.js';
import { readSecretOnce } from './secrets.js';

/** The answer of `generator_getStatus` (lisk-sdk engine/generator/endpoint.ts). */
export interface GeneratorStatusEntry {
  address: string;
  height: number;
  maxHeightPrevoted: number;
  maxHeightGenerated: number;
  generatorKey: string;
  blsKey: string;
  enabled: boolean;
}

export interface GeneratorStatusResponse {
  status: GeneratorStatusEntry[];
}

/** The prompt of generator:enable/disable (lisk-core's text). */
export const DECRYPT_PASSWORD_QUESTION = 'Enter password to decrypt the encrypted passphrase: ';

/** The heights generator_updateStatus records for a validator. */
export interface GeneratorHeights {
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

/**
 * generator:enable/disable: asks for the password of the validator's encrypted keys (unless
 * --password or the environment gives it), then calls generator_updateStatus.
 */
export async function updateGeneratorStatus(
  client: NodeClient,
  io: PromptIO,
  passwordFlag: string | undefined,
  address: string,
  enable: boolean,
  heights: GeneratorHeights,
): Promise<void> {
  const password = await readSecretOnce(io, { kind: 'password', flag: passwordFlag, confirm: false, question: DECRYPT_PASSWORD_QUESTION });
  await client.invoke('generator_updateStatus', {
    address,
    password,
    enable,
    height: heights.height,
    maxHeightGenerated: heights.maxHeightGenerated,
    maxHeightPrevoted: heights.maxHeightPrevoted,
  });
}
