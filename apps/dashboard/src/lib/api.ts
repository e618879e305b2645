import { ApiError, checkAnswer, createApiClient, isApiStatus, serverMessage } from '@fanpilot/contracts';

export { ApiError, isApiStatus, serverMessage };

/**
 * The dashboard's api client: calls by name (packages/contracts), with the session cookie, each
 * answer checked against its schema.
 */
export const api = createApiClient({ check: checkAnswer });
