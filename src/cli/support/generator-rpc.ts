/** Shapes of the generator RPC answers the generator:* commands read, and their prompt text. */
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
