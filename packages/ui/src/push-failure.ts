import { ApiError } from '@fanpilot/contracts';

// Turning on push notifications is four steps, each of which fails for its own reason: the
// browser's permission, the service worker, the browser's push service, and the api. A failure says
// which one and why (issue 36 item 9a), never just "Please try again".

export type PushStep = 'permission' | 'worker' | 'subscribe' | 'api';

/** A failed step of turning push on, with what failed (the browser's or the api's error). */
export class PushSetupError extends Error {
  constructor(
    readonly step: PushStep,
    readonly cause: unknown,
    /** For 'permission': what the browser answered ('denied' or 'default'). */
    readonly permission?: NotificationPermission,
  ) {
    super(`push ${step} failed`);
    this.name = 'PushSetupError';
  }
}

/** Runs one step; its failure becomes a PushSetupError naming the step. */
export async function pushStep<T>(step: PushStep, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof PushSetupError ? error : new PushSetupError(step, error);
  }
}

/** Asks the browser for permission; anything but 'granted' is a failed 'permission' step. */
export async function askPushPermission(request: () => Promise<NotificationPermission>): Promise<void> {
  const permission = await pushStep('permission', request);
  if (permission !== 'granted') throw new PushSetupError('permission', null, permission);
}

export const PUSH_TEXTS = {
  blocked:
    'Your browser blocks notifications for this site. Allow them in the browser’s site settings, then turn them on again.',
  dismissed: 'The browser’s question was closed without an answer. Turn them on again and choose Allow.',
  worker: (why: string) =>
    `This page could not start its notification worker (${why}). Reload the page, then try again.`,
  pushService: (why: string) =>
    `The browser’s push service could not be reached (${why}). Check your connection, then try again.`,
  unreachable: 'Fanpilot could not be reached. Check your connection, then try again.',
  refused: (status: number) => `Fanpilot refused to turn notifications on (error ${status}).`,
} as const;

/** A browser error's own words: "NotAllowedError: Registration failed - …" reads as its message. */
function said(error: unknown): string {
  if (error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)) {
    const e = error as Error;
    return e.message ? (e.name && e.name !== 'Error' ? `${e.name}: ${e.message}` : e.message) : e.name;
  }
  return String(error);
}

/** Why turning push on failed, in words for the person who tapped Turn on. */
export function pushFailureText(error: unknown): string {
  const failure = error instanceof PushSetupError ? error : new PushSetupError('api', error);
  const cause = failure.cause;
  switch (failure.step) {
    case 'permission':
      // A rejected request (no answer at all) is a browser that blocks notifications outright.
      return failure.permission === 'default' ? PUSH_TEXTS.dismissed : PUSH_TEXTS.blocked;
    case 'worker':
      return PUSH_TEXTS.worker(said(cause));
    case 'subscribe':
      return PUSH_TEXTS.pushService(said(cause));
    case 'api':
      if (cause instanceof ApiError) {
        return typeof cause.body?.message === 'string' && cause.body.message
          ? cause.body.message
          : PUSH_TEXTS.refused(cause.status);
      }
      return PUSH_TEXTS.unreachable;
  }
}
