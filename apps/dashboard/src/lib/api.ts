import {
  ApiError,
  type CallName,
  calls,
  createApiClient,
  isApiStatus,
  serverMessage,
} from '@fanpilot/contracts';

export { ApiError, isApiStatus, serverMessage };

type ResponseSchemas = Partial<Record<number, { parse: (value: unknown) => unknown }>>;

/** The answer as its call's schema says it is (a body that does not match fails the call). */
export function checkAnswer(name: CallName, status: number, body: unknown): unknown {
  const schema = (calls[name].schema as { response?: ResponseSchemas }).response?.[status];
  return schema ? schema.parse(body) : body;
}

/**
 * The dashboard's api client: calls by name (packages/contracts), with the session cookie, each
 * answer checked against its schema.
 */
export const api = createApiClient({ check: checkAnswer });
