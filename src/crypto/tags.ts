/**
 * Message tags (LIP 0037): every signature is domain-separated by an ASCII
 * tag `LSK_<DOMAIN>_` or `LSK_<DOMAIN>:<VERSION>_`.
 */
import { FormatError } from '../errors.js';

/** Transactions. */
export const MESSAGE_TAG_TRANSACTION = 'LSK_TX_';
/** Block headers. */
export const MESSAGE_TAG_BLOCK_HEADER = 'LSK_BH_';
/** Certificates (BLS, LIP 0061). */
export const MESSAGE_TAG_CERTIFICATE = 'LSK_CE_';
/** Member signatures of a multisignature registration (the SDK's spelling; LIP 0037 says LSK_RMS_). */
export const MESSAGE_TAG_MULTISIG_REG = 'LSK_RMSG_';
/** Sidechain/mainchain registration (interoperability). */
export const MESSAGE_TAG_CHAIN_REG = 'LSK_CRM_';
/** PoA authority update. */
export const MESSAGE_TAG_POA = 'LSK_POA_';
/** Off-chain "sign message" (chainID empty). */
export const MESSAGE_TAG_NON_PROTOCOL_MESSAGE = 'LSK_NPM_';

const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

/**
 * Builds a tag from a domain and an optional version (LIP 0037). Both must be non-empty ASCII
 * alphanumerics. As in the SDK, a falsy version (undefined, '', 0) means "no version".
 */
export function createMessageTag(domain: string, version?: number | string): string {
  if (!ALPHANUMERIC.test(domain)) {
    throw new FormatError(`Message tag domain must be alphanumeric without special characters. Got "${domain}".`);
  }
  if (!version) return `LSK_${domain}_`;
  const versionText = String(version);
  if (!ALPHANUMERIC.test(versionText)) {
    throw new FormatError(`Message tag version must be alphanumeric without special characters. Got "${versionText}".`);
  }
  return `LSK_${domain}:${versionText}_`;
}
