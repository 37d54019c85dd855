/**
 * config/devnet/DEV_PASSPHRASES.md: the devnet's public passphrases and what they control,
 * generated with the other devnet files so the document never drifts from the keys.
 */
import { encodeLisk32 } from '../../crypto/index.js';
import type { DevnetKeys } from './devnet-keys.js';
import type { DevnetSpec } from './devnet-spec.js';

const LSK = 100_000_000n;
/** Whole LSK with thousands separators (no locale dependence). */
const lsk = (beddows: bigint): string => `${(beddows / LSK).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')} LSK`;

export function devnetPassphrasesDoc(spec: DevnetSpec, keys: DevnetKeys, chainID: Buffer): string {
  const validatorRows = keys.validators.map((validator, index) => {
    const role = index < spec.activeValidators ? 'active (init)' : 'standby';
    const stake = index < spec.activeValidators ? spec.activeSelfStake : spec.standbySelfStake;
    return `| ${index} | basalt_dev_${index} | ${validator.address} | ${role} | ${lsk(stake)} | \`${validator.keyPath}\` |`;
  });
  const accountRows = keys.accounts.map(
    (account, index) => `| ${index} | ${account.address} | ${lsk(spec.devAccountBalance)} | \`${account.keyPath}\` |`,
  );
  return `# DEVNET ONLY: PUBLIC, INSECURE PASSPHRASES

> **WARNING: every passphrase in this file is public. Anyone can sign with these keys.**
> **Never use them, or any account derived from them, on testnet, mainnet or for anything of value.**
> **They exist only so that anyone can run and script Basalt's local development chain.**

Chain ID \`${chainID.toString('hex')}\` (the devnet network byte \`04\`, mainchain), LSK token ID
\`${chainID.toString('hex')}00000000\`, genesis timestamp ${spec.timestamp} (${new Date(spec.timestamp * 1000).toISOString()}).

Each passphrase is the 24-word BIP-39 mnemonic of the entropy SHA-256(label). Keys are derived as
\`lisk-core keys:create --chainid ${spec.keyChainIndex}\` derives them: account key \`m/44'/134'/n'\`,
generator key \`m/25519'/134'/${spec.keyChainIndex}'/n'\`, BLS key \`m/12381/134/${spec.keyChainIndex}/n\`.

## Validators (label "basalt devnet validators")

\`\`\`
${spec.validatorPassphrase}
\`\`\`

${spec.activeValidators} active + ${spec.standbyValidators} standby validators; \`dev-validators.json\` holds their keys (plain, unencrypted).
Each validator account also holds ${lsk(spec.validatorBalance)} available.

| n | name | address | role | self-stake | account key path |
| --- | --- | --- | --- | --- | --- |
${validatorRows.join('\n')}

A fresh devnet node submits \`bootstrap_transactions.json\` to its pool: one \`pos:stake\` of 10 LSK per
validator to itself. Genesis stakes do not enter PoS's eligible-validators index (lisk-sdk writes it only
from commands), so without these the set would shrink after the ${spec.initRounds} init rounds.

## Funded accounts (label "basalt devnet accounts")

\`\`\`
${spec.accountPassphrase}
\`\`\`

| n | address | balance | account key path |
| --- | --- | --- | --- |
${accountRows.join('\n')}

## Legacy account to reclaim (label "basalt devnet legacy account")

\`\`\`
${spec.legacyPassphrase}
\`\`\`

A pre-v4 account: its key is the legacy one (Ed25519 seed = SHA-256 of the passphrase), public key
\`${keys.legacy.publicKey.toString('hex')}\`, legacy address \`${keys.legacy.legacyAddress.toString('hex')}\`.
It holds ${lsk(spec.legacyBalance)} in the \`legacy\` module; a \`legacy:reclaimLSK\` transaction with amount
${spec.legacyBalance} signed with this key moves them to ${encodeLisk32(keys.legacy.address)}, the account's v4
address, which starts with ${lsk(spec.legacyFeeBalance)} to pay that transaction's fee.

## Regenerating

Everything in this folder except \`config.json\` is generated from \`src/genesis/devnet/devnet-spec.ts\`
and \`config.json\`:

\`\`\`
node --import tsx src/genesis/devnet/regenerate-devnet.ts
\`\`\`

The genesis block alone can be rebuilt with the CLI:

\`\`\`
basalt genesis:create --assets config/devnet/genesis_assets.json --config config/devnet/config.json \\
  --timestamp ${spec.timestamp} --output config/devnet/genesis_block.blob
\`\`\`
`;
}
