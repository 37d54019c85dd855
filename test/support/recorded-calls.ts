/**
 * Replays the endpoint calls a reference node answered (final_state.json of a recorded chain)
 * and lists every answer that differs: against an open chain, or against any set of handlers
 * over a given state (module tests on the recorded tip state).
 */
import { validate } from '../../src/codec/index.js';
import { silentLogger } from '../../src/logger.js';
import type { EndpointContext, EndpointHandler } from '../../src/modules/base/index.js';
import type { OpenChain } from '../../src/node.js';
import { createConsensusEndpoints } from '../../src/rpc/endpoints/consensus-endpoints.js';
import type { RecordedCall } from './dev-chain.js';

/** Namespaces served by the engine's RPC endpoints, not by a module or consensus. */
const ENGINE_NAMESPACES = new Set(['chain', 'txpool', 'system']);

/** The handler of `<namespace>_<name>`, undefined when there is none. */
export type HandlerLookup = (namespace: string, name: string) => EndpointHandler | undefined;

export function endpointContext(chain: OpenChain, chainID: Buffer, params: Record<string, unknown>): EndpointContext {
  return {
    state: chain.stateDb.moduleReader,
    chainID,
    logger: silentLogger,
    header: chain.processor.tipHeader(),
    params,
  };
}

/** The module and consensus endpoints of an open chain. */
export function chainHandlers(chain: OpenChain): HandlerLookup {
  const consensus = createConsensusEndpoints(chain.bft, () => chain.stateDb.engineReader);
  return (namespace, name) =>
    namespace === 'consensus' ? consensus[name] : chain.modules.list.find((module) => module.name === namespace)?.endpoints[name];
}

/** Calls like the RPC layer does: params validated against the request schema first. */
async function callEndpoint(handler: EndpointHandler, context: EndpointContext): Promise<unknown> {
  try {
    if (handler.request) validate(handler.request, context.params);
    return JSON.parse(JSON.stringify(await handler.handle(context)));
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * The recorded answer in the shape `callEndpoint` gives: the result, or `{error: message}` for a
 * JSON-RPC error and for an error the recorder kept inside `result`.
 */
function recordedAnswer(call: RecordedCall): unknown {
  if (call.error) return { error: call.error.message };
  const inResult = (call.result as { error?: { message: string } } | undefined)?.error;
  return inResult ? { error: inResult.message } : call.result;
}

export interface RecordedCallsOutcome {
  /** One line per call answered differently (or with no handler): method, params, got, want. */
  mismatches: string[];
  compared: number;
}

/**
 * Asks every call of `calls` that `include` accepts (engine namespaces are always left out) of
 * the handler `lookup` finds, in the context `contextFor` builds, and compares each answer with
 * the recorded one as JSON.
 */
export async function compareRecordedCalls(
  calls: RecordedCall[],
  lookup: HandlerLookup,
  contextFor: (params: Record<string, unknown>) => EndpointContext,
  include: (method: string) => boolean = () => true,
): Promise<RecordedCallsOutcome> {
  const mismatches: string[] = [];
  let compared = 0;
  for (const call of calls) {
    const [namespace, name] = call.method.split('_') as [string, string];
    if (ENGINE_NAMESPACES.has(namespace) || !include(call.method)) continue;
    const handler = lookup(namespace, name);
    if (!handler) {
      mismatches.push(`${call.method}: no handler`);
      continue;
    }
    compared += 1;
    const got = await callEndpoint(handler, contextFor(call.params));
    const want = recordedAnswer(call);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      mismatches.push(
        `${call.method} ${JSON.stringify(call.params)}: got ${JSON.stringify(got).slice(0, 300)}, want ${JSON.stringify(want).slice(0, 300)}`,
      );
    }
  }
  return { mismatches, compared };
}

/** compareRecordedCalls against an open chain at its tip, leaving out the `skip` methods. */
export function compareChainAnswers(
  chain: OpenChain,
  chainID: Buffer,
  calls: RecordedCall[],
  skip: ReadonlySet<string>,
): Promise<RecordedCallsOutcome> {
  return compareRecordedCalls(
    calls,
    chainHandlers(chain),
    (params) => endpointContext(chain, chainID, params),
    (method) => !skip.has(method),
  );
}
