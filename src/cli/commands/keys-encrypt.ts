import { resolve } from 'node:path';
import { expandHome } from '../../config/config-paths.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { encryptionOptions } from '../support/encryption-options.js';
import { writePrivateJsonFile } from '../support/json-output.js';
import { encryptPlainKeys, readKeysFile, type PlainKeysJSON } from '../support/keys-file.js';
import type { PromptIO } from '../support/prompt.js';
import { readSecretOnce, SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Encrypt the plain generator keys of a key file with a password (lisk-core keys:encrypt).

Usage: basalt keys:encrypt --file-path FILE [--password TEXT]

  -f, --file-path FILE  a keys.json (keys:create --no-encrypt, or Lisk's); rewritten in place, 0600
  -w, --password TEXT   the password (RISK, see below; asked twice otherwise)   [BASALT_PASSWORD]

Every entry gets an "encrypted" section: its four generator keys encrypted with argon2id (2 GiB)
and AES-128-GCM, as keys:create writes it. Existing "encrypted" sections are replaced.

${SECRETS_RISK_NOTE}

Examples:
  basalt keys:encrypt --file-path ./keys.json
`;

export const keysEncryptCommand: CliCommand = {
  name: 'keys:encrypt',
  summary: 'Add the encrypted section to every entry of a key file',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values } = parseFlags(argv, {
      'file-path': { type: 'string', short: 'f' },
      password: { type: 'string', short: 'w' },
    });
    if (values['file-path'] === undefined) throw new UsageError('--file-path is required.');
    const path = resolve(expandHome(values['file-path']));
    const file = readKeysFile(path);
    const missing = file.keys.find((entry) => entry.plain === undefined);
    if (missing) throw new Error(`Entry ${missing.address} of ${path} has no "plain" keys to encrypt.`);
    const options = encryptionOptions(io.stderr);
    const password = await readSecretOnce(io, { kind: 'password', flag: values.password, confirm: true });
    for (const entry of file.keys) {
      entry.encrypted = await encryptPlainKeys(entry.plain as PlainKeysJSON, password, options);
    }
    writePrivateJsonFile(path, file);
    io.stdout.write(`Successfully written data to ${path}\n`);
    return EXIT_OK;
  },
};
