import { checkPushEndpoint as checkPushTarget, PushEndpointRefused } from '@fanpilot/background';
import { badRequest } from '../errors.ts';

// Web Push delivery lives in packages/background (any process with the VAPID keys delivers); the
// api checks a browser's endpoint when it subscribes, with the same rule the delivery applies.

/** The subscription's endpoint checked as a delivery checks it; refused: a 400. */
export async function checkPushEndpoint(endpoint: string, allowedHosts: string[]): Promise<void> {
  try {
    await checkPushTarget(endpoint, allowedHosts);
  } catch (err) {
    if (!(err instanceof PushEndpointRefused)) throw err;
    throw badRequest(
      'The push subscription endpoint is not a public push service address.',
      'push_endpoint_not_allowed',
    );
  }
}
