import { encryptMessageWithPassword, encryptPassphraseV3, legacyKeyPairFromPassphrase } from '../../crypto/index.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { encryptionOptions } from '../support/encryption-options.js';
import { writeOrPrintJson } from '../support/json-output.js';
import { createPrompter, type Prompter, type PromptIO } from '../support/prompt.js';
import { readSecret, SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Encrypt a passphrase with a password (lisk-core passphrase:encrypt).

Usage: basalt passphrase:encrypt [--format v4|v3] [--output-public-key] [--output FILE]
                                 [--passphrase TEXT] [--password TEXT]

      --format v4|v3       v4 (default): Lisk Core 4's object (argon2id 2 GiB + AES-128-GCM);
                           v3: the "iterations=…&cipherText=…" string of Lisk Core 1.x-3.x configs
                           (forging.delegates[].encryptedPassphrase; PBKDF2 + AES-256-GCM)
      --output-public-key  add "publicKey": the legacy (Lisk Core 3.x) public key of the passphrase
  -o, --output FILE        write to a file (mode 0600); a path without an extension is a directory
                           that receives passphrase.json
  -p, --passphrase TEXT    the passphrase (RISK, see below)          [BASALT_PASSPHRASE]
  -w, --password TEXT      the password (RISK, see below)            [BASALT_PASSWORD]

Prints {"encryptedPassphrase": ...}. Both secrets are asked twice.

${SECRETS_RISK_NOTE}

Examples:
  basalt passphrase:encrypt
  basalt passphrase:encrypt --output-public-key --output ./encrypted.json
  basalt passphrase:encrypt --format v3
`;

export const passphraseEncryptCommand: CliCommand = {
  name: 'passphrase:encrypt',
  summary: 'Encrypt a passphrase with a password (v4 object or v3 string)',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values } = parseFlags(argv, {
      format: { type: 'string' },
      'output-public-key': { type: 'boolean' },
      output: { type: 'string', short: 'o' },
      passphrase: { type: 'string', short: 'p' },
      password: { type: 'string', short: 'w' },
    });
    const format = values.format ?? 'v4';
    if (format !== 'v4' && format !== 'v3') throw new UsageError('--format must be v4 or v3.');
    const options = format === 'v4' ? encryptionOptions(io.stderr) : {};
    let prompter: Prompter | undefined;
    const ask = () => (prompter ??= createPrompter(io));
    let result: Record<string, unknown>;
    try {
      const passphrase = await readSecret(ask, { kind: 'passphrase', flag: values.passphrase, confirm: true });
      const password = await readSecret(ask, { kind: 'password', flag: values.password, confirm: true });
      prompter?.close();
      const encryptedPassphrase =
        format === 'v4'
          ? await encryptMessageWithPassword(Buffer.from(passphrase, 'utf8'), password, options)
          : encryptPassphraseV3(passphrase, password);
      result = { encryptedPassphrase };
      if (values['output-public-key'] === true) result.publicKey = legacyKeyPairFromPassphrase(passphrase).publicKey.toString('hex');
    } finally {
      prompter?.close();
    }
    writeOrPrintJson(io.stdout, values.output, 'passphrase.json', result, true);
    return EXIT_OK;
  },
};
