import { LOW_CREDITS_THRESHOLD } from '@fanpilot/contracts';

/** 'out' at 0 credits (the AI is paused), 'low' below the threshold, 'ok' otherwise. */
export const creditState = (balance: number): 'ok' | 'low' | 'out' =>
  balance <= 0 ? 'out' : balance < LOW_CREDITS_THRESHOLD ? 'low' : 'ok';

/** '$1.00', '$20.00'. */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
