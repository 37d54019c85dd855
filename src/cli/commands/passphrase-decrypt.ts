import { readFileSync } from 'node:fs';
import { decryptMessageWithPassword, decryptPassphraseV3, parseEncryptedMessage, type EncryptedMessageInput } from '../../crypto/index.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import type { PromptIO } from '../support/prompt.js';
import { readSecretOnce, SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Decrypt an encrypted passphrase (lisk-core passphrase:decrypt, plus Lisk Core 1.x-3.x strings).

Usage: basalt passphrase:decrypt --file-path FILE [--password TEXT]

  -f, --file-path FILE  a JSON file with "encryptedPassphrase": the v4 object (passphrase:encrypt),
                        its querystring form (kdf=…&cipher=…), or the v3 string
                        (iterations=…&cipherText=…) of a Lisk Core 1.x-3.x config
  -w, --password TEXT   the password (RISK, see below; asked once otherwise)   [BASALT_PASSWORD]

Prints the passphrase as a JSON string. It is the secret itself: mind who sees your terminal.

${SECRETS_RISK_NOTE}

Examples:
  basalt passphrase:decrypt --file-path ./encrypted.json
`;

/** Decrypts whichever of the three forms `value` is. */
async function decryptAnyForm(value: unknown, password: string): Promise<string> {
  if (typeof value === 'object' && value !== null) {
    return (await decryptMessageWithPassword(value as EncryptedMessageInput, password)).toString('utf8');
  }
  if (typeof value === 'string') {
    if (/(^|&)cipherText=/.test(value)) return decryptPassphraseV3(value, password);
    return (await decryptMessageWithPassword(parseEncryptedMessage(value), password)).toString('utf8');
  }
  throw new Error('"encryptedPassphrase" must be an object or a string.');
}

export const passphraseDecryptCommand: CliCommand = {
  name: 'passphrase:decrypt',
  summary: 'Decrypt an encrypted passphrase (v4 object or v3 string)',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values } = parseFlags(argv, { 'file-path': { type: 'string', short: 'f' }, password: { type: 'string', short: 'w' } });
    if (values['file-path'] === undefined) throw new UsageError('--file-path is required.');
    let json: { encryptedPassphrase?: unknown };
    try {
      json = JSON.parse(readFileSync(values['file-path'], 'utf8')) as { encryptedPassphrase?: unknown };
    } catch {
      throw new Error(`${values['file-path']} is not a readable JSON file.`);
    }
    if (json === null || typeof json !== 'object' || json.encryptedPassphrase === undefined) {
      throw new Error(`${values['file-path']} has no "encryptedPassphrase".`);
    }
    const password = await readSecretOnce(io, { kind: 'password', flag: values.password, confirm: false });
    const passphrase = await decryptAnyForm(json.encryptedPassphrase, password);
    io.stdout.write(`${JSON.stringify(passphrase)}\n`);
    return EXIT_OK;
  },
};
