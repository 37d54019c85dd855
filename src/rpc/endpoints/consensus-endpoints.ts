import { encodeLisk32Address } from '../../codec/index.js';
import type { EndpointHandler } from '../../modules/base/index.js';
import type { StateReader } from '../../state/state-view.js';
import type { Bft } from '../../engine/consensus/bft/bft.js';
import type { BftParameters } from '../../engine/consensus/bft/schemas.js';

// Heights are uint32: a larger one would not even make a valid store key.
const heightRequest = {
  type: 'object',
  required: ['height'],
  properties: { height: { type: 'integer', minimum: 0, maximum: 0xffff_ffff } },
} as const;

export interface BftParametersJSON {
  validators: { address: string; bftWeight: string; blsKey: string }[];
  certificateThreshold: string;
  precommitThreshold: string;
  prevoteThreshold: string;
  validatorsHash: string;
}

/** `consensus_getBFTParameters` JSON (lisk-sdk engine/endpoint/consensus.ts): the generator keys are not returned. */
export function bftParametersToJSON(parameters: BftParameters, onlyActive = false): BftParametersJSON {
  // Key order as lisk-sdk emits it.
  return {
    validators: parameters.validators
      .filter((validator) => !onlyActive || validator.bftWeight > 0n)
      .map((validator) => ({
        address: encodeLisk32Address(validator.address),
        bftWeight: validator.bftWeight.toString(),
        blsKey: validator.blsKey.toString('hex'),
      })),
    certificateThreshold: parameters.certificateThreshold.toString(),
    precommitThreshold: parameters.precommitThreshold.toString(),
    prevoteThreshold: parameters.prevoteThreshold.toString(),
    validatorsHash: parameters.validatorsHash.toString('hex'),
  };
}

/** The engine's `consensus` namespace (docs/protocol/bft.md), reading the committed engine state. */
export function createConsensusEndpoints(bft: Bft, engineState: () => StateReader): Record<string, EndpointHandler> {
  return {
    getBFTParameters: {
      request: heightRequest,
      handle: ({ params }) => bftParametersToJSON(bft.getParameters(engineState(), params.height as number)),
    },
    getBFTParametersActiveValidators: {
      request: heightRequest,
      handle: ({ params }) => bftParametersToJSON(bft.getParameters(engineState(), params.height as number), true),
    },
    getBFTHeights: {
      handle: () => bft.getHeights(engineState()),
    },
  };
}
