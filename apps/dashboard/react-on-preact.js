// `react` for the dashboard's build: `preact/compat`, plus the two React 19 hooks React Router's
// data router imports, and a `useId` unique across lazily loaded trees (vite.preact.ts).
import compat, { useContext, useState } from 'preact/compat';

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

let lastId = 0;

/**
 * An id unique in the page and stable for the component's life. Preact's own derives ids from the
 * component's place in its tree, and two components in separately loaded (lazy) trees can get the
 * same one: a label then points at another page part's control (seen in the conversation's
 * correction form). The dashboard renders only in the browser, so a counter is enough.
 */
export function useId() {
  return useState(() => `fp${(++lastId).toString(36)}`)[0];
}

export default { ...compat, useOptimistic, use, useId };
