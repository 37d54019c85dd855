import { BasaltError } from '../errors.js';

/** A config that cannot be read, parsed, validated or used; the message names the key. */
export class ConfigError extends BasaltError {
  constructor(message: string) {
    super('ERR_CONFIG', message);
  }
}
