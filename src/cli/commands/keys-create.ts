import { deriveLegacyValidatorKeys, deriveValidatorKeys, type ValidatorKeys } from '../../crypto/index.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { integerFlag, parseFlags } from '../support/args.js';
import { encryptionOptions } from '../support/encryption-options.js';
import { writeOrPrintJson } from '../support/json-output.js';
import { encryptPlainKeys, keysFileEntry, type KeysFileEntry, type PlainKeysJSON } from '../support/keys-file.js';
import { createPrompter, type Prompter, type PromptIO } from '../support/prompt.js';
import { readSecret, SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Derive validator keys from a passphrase and write Lisk's keys.json (lisk-core keys:create).

Usage: basalt keys:create --output FILE [--chainid N] [--offset N] [--count N] [--add-legacy]
                          [--no-encrypt] [--passphrase TEXT] [--password TEXT]

  -o, --output FILE     where the key file goes (mode 0600); a path without an extension is a
                        directory that receives keys.json; "-" prints the keys on stdout instead
  -i, --chainid N       the integer in the generator and BLS key paths (default 0): 0 mainnet,
                        1 testnet, 4 Basalt's devnet
  -f, --offset N        first account index n (default 0)
  -c, --count N         number of entries (default 1); --add-legacy's entry counts
      --add-legacy      first entry: the Lisk Core 3.x key (sha256 of the passphrase), BLS key at
                        index 99999
  -n, --no-encrypt      no "encrypted" section (no password asked)
  -p, --passphrase TEXT the passphrase (RISK, see below)             [BASALT_PASSPHRASE]
  -w, --password TEXT   the password that encrypts the keys (RISK)   [BASALT_PASSWORD]

Each entry holds the account key m/44'/134'/n', the generator key m/25519'/134'/<chainid>'/n' and
the BLS key m/12381/134/<chainid>/n with its proof of possession, in plain and (unless
--no-encrypt) encrypted with the password (argon2id, 2 GiB, + AES-128-GCM). The file holds private
keys: keep it private. Both secrets are asked twice.

${SECRETS_RISK_NOTE}

Examples:
  basalt keys:create --chainid 4 --output ./keys.json
  basalt keys:create --chainid 0 --offset 2 --count 3 --output ./validator-keys/
  basalt keys:create --chainid 0 --add-legacy --count 1 --output ./legacy-keys.json
`;

export const keysCreateCommand: CliCommand = {
  name: 'keys:create',
  summary: 'Derive account, generator and BLS keys from a passphrase into a key file',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values } = parseFlags(argv, {
      output: { type: 'string', short: 'o' },
      chainid: { type: 'string', short: 'i' },
      offset: { type: 'string', short: 'f' },
      count: { type: 'string', short: 'c' },
      'add-legacy': { type: 'boolean' },
      'no-encrypt': { type: 'boolean', short: 'n' },
      passphrase: { type: 'string', short: 'p' },
      password: { type: 'string', short: 'w' },
    });
    if (values.output === undefined) {
      throw new UsageError('--output is required: the keys include private keys (use --output - to print them on stdout).');
    }
    const chainIndex = integerFlag('chainid', values.chainid, 0, 0x7fff_ffff) ?? 0;
    const offset = integerFlag('offset', values.offset, 0, 0x7fff_ffff) ?? 0;
    const count = integerFlag('count', values.count, 1, 10_000) ?? 1;
    if (offset + count > 0x8000_0000) throw new UsageError('--offset + --count must stay below 2^31 (hardened indexes).');
    const encrypt = values['no-encrypt'] !== true;
    const options = encrypt ? encryptionOptions(io.stderr) : {};

    let prompter: Prompter | undefined;
    const ask = () => (prompter ??= createPrompter(io));
    try {
      const passphrase = await readSecret(ask, { kind: 'passphrase', flag: values.passphrase, confirm: true });
      const password = encrypt ? await readSecret(ask, { kind: 'password', flag: values.password, confirm: true }) : '';
      prompter?.close();

      const derived: ValidatorKeys[] = [];
      let i = 0;
      if (values['add-legacy'] === true) {
        derived.push(deriveLegacyValidatorKeys(passphrase, chainIndex));
        i = 1; // Lisk: the legacy entry counts toward --count and index 0 is skipped.
      }
      for (; i < count; i += 1) derived.push(deriveValidatorKeys(passphrase, { chainIndex, accountIndex: offset + i }));

      const keys: KeysFileEntry[] = [];
      for (const derivedKeys of derived) {
        const entry = keysFileEntry(derivedKeys, undefined);
        if (encrypt) entry.encrypted = await encryptPlainKeys(entry.plain as PlainKeysJSON, password, options);
        keys.push(entry);
      }
      writeOrPrintJson(io.stdout, values.output === '-' ? undefined : values.output, 'keys.json', { keys }, true);
      return EXIT_OK;
    } finally {
      prompter?.close();
    }
  },
};
