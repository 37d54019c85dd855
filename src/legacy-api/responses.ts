/**
 * The bodies the legacy API answers with (cli_migration.md §6.2, §6.3). Texts are Core 1.x/2.x's
 * where Core has one; the rest are Basalt's and stable (tests and clients match on them).
 */

/** Core 2.x response formatter: a result goes into `data`, with empty `meta` and `links`. */
export function envelope(data: unknown, meta: Record<string, unknown> = {}): { meta: Record<string, unknown>; data: unknown; links: Record<string, never> } {
  return { meta, data, links: {} };
}

/** General API gate (`access.public` false and caller not whitelisted): 403. */
export const API_ACCESS_DENIED = { message: 'API access denied', errors: ['API access blocked.'] } as const;
/** Forging gate (caller not in the forging whitelist): 403. */
export const FORGING_ACCESS_DENIED = { message: 'Access Denied' } as const;
/** 500: any failure the API did not expect. */
export const UNEXPECTED_ERROR = { message: 'An unexpected error occurred while handling this request' } as const;
/** 404 for paths the API does not serve (Basalt's text). */
export const PATH_NOT_FOUND = { message: 'Not found' } as const;

/** 404 texts of the toggle (§6.2). */
export const INVALID_PASSWORD_MESSAGE = 'Invalid password and public key combination';
export const DELEGATE_NOT_FOUND_MESSAGE = 'Delegate not found';
export const delegateNotConfiguredMessage = (publicKey: string): string => `Delegate with publicKey: ${publicKey} not found`;
/** lisk-sdk's text for the same refusal in generator_updateStatus (§1.6 step 4). */
export const NOT_SYNCED_MESSAGE = 'Failed to enable forging as the node is not synced to the network.';

/** Largest PUT body read; the forging toggle needs well under 1 KiB. */
export const MAX_BODY_BYTES = 16 * 1024;
/** 413 (Basalt's body): the body is refused before it is read in full. */
export const BODY_TOO_LARGE = { message: 'Request body too large', errors: [`The request body exceeds ${MAX_BODY_BYTES} bytes.`] } as const;

/** 405 for another method on a served path (Basalt's body). */
export const methodNotAllowed = (allowed: string) => ({ message: 'Method not allowed', errors: [`Allowed: ${allowed}.`] });
