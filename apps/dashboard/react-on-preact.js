// `react` for the dashboard's build: `preact/compat`, plus the two React 19 hooks React Router's
// data router imports (vite.preact.ts).
import compat, { useContext } from 'preact/compat';

export * from 'preact/compat';

const ignore = () => {};

/**
 * React Router's RouterProvider keeps its state through `useOptimistic` and sets an optimistic state
 * only when it is given `useTransitions` (this app never does): the state passes through unchanged.
 */
export function useOptimistic(state) {
  return [state, ignore];
}

/**
 * `use` of a context reads it; React Router calls `use` on a promise only inside `<Await>`, which
 * this app does not render. A promise is refused loudly rather than half-supported.
 */
export function use(usable) {
  if (usable && typeof usable.then === 'function') {
    throw new Error('use(promise) is not available on the dashboard (preact/compat)');
  }
  return useContext(usable);
}

export default { ...compat, useOptimistic, use };
