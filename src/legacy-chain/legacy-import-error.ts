import { BasaltError } from '../errors.js';

/** Which rule a v3 block broke during an import. */
export type LegacyImportFailure =
  | 'block-id'
  | 'header'
  | 'start-height'
  | 'height'
  | 'previous-block-id'
  | 'transaction-root'
  | 'above-snapshot'
  | 'snapshot-block'
  | 'incomplete'
  | 'resume';

/**
 * A v3 block that cannot belong to the bracket being imported. Blocks verified before it stay
 * stored with the import's progress, so nothing half-written is left: the store is as after the
 * last whole batch.
 */
export class LegacyImportError extends BasaltError {
  constructor(
    readonly failure: LegacyImportFailure,
    message: string,
    readonly height?: number,
  ) {
    super('ERR_LEGACY_IMPORT', message);
  }
}
