import { ConnectorError } from '../../connectors/http/error.ts';
import { Throttled } from '../../connectors/proof/api.ts';
import { type Outcome, unknown } from './check.ts';

/**
 * What a failed request means for the proof: it could not be checked, and why. `Throttled` goes
 * on up, for the proof phase to hold the provider's other checks back.
 */
export function failure(provider: string, error: unknown): Outcome {
  if (error instanceof Throttled) throw error;
  if (error instanceof ConnectorError) {
    // The client's deadline passed: no answer, and no words of the provider's.
    if (error.failure === 'unavailable' && error.detail === undefined)
      return unknown(`${provider} did not answer in time`);
    return unknown(error.full);
  }
  const name = (error as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return unknown(`${provider} did not answer in time`);
  return unknown(`${provider} could not be reached (${(error as Error)?.message ?? String(error)})`);
}
