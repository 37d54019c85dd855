import type { Schema } from '../../codec/index.js';
import type { Logger } from '../../logger.js';
import type { ExecutionHeader, ReadContext } from './context.js';

/** What an endpoint handler reads: the state at the tip, the tip header and its params. */
export interface EndpointContext extends ReadContext {
  readonly chainID: Buffer;
  readonly logger: Logger;
  /** The header of the current tip. */
  readonly header: ExecutionHeader;
  /** Params already validated against `request` (JSON values, as a client sent them). */
  readonly params: Record<string, unknown>;
}

/**
 * A module endpoint (`<module>_<name>` over RPC): a plain function from validated params to a
 * JSON-ready result. `sensitive` endpoints are refused unless the config allows them.
 */
export interface EndpointHandler {
  readonly request?: Schema | Record<string, unknown>;
  readonly response?: Schema | Record<string, unknown>;
  readonly sensitive?: boolean;
  handle(context: EndpointContext): unknown | Promise<unknown>;
}
