const key = (username: string) => `fanpilot.dashboard-visited.${username}`;

/** What this page load decided per creator: a remount (another section and back, a retry after a
 * suspended render) must not turn the first visit's "Welcome" into "Welcome back". */
const decided = new Map<string, boolean>();

/**
 * Whether this page load is the creator's first visit to their dashboard in this browser: decided
 * once per page load and then remembered (localStorage), so the next load reads as a return.
 * Storage that cannot be used (private modes) reads as a return.
 */
export function firstDashboardVisit(
  username: string,
  storage: Storage | undefined = globalThis.localStorage,
): boolean {
  const known = decided.get(username);
  if (known !== undefined) return known;
  const first = rememberVisit(username, storage);
  decided.set(username, first);
  return first;
}

function rememberVisit(username: string, storage: Storage | undefined): boolean {
  try {
    if (!storage || storage.getItem(key(username)) !== null) return false;
    storage.setItem(key(username), new Date().toISOString());
    return true;
  } catch {
    return false;
  }
}

/** Forgets this page load's decisions, as a new page load would (tests). */
export function resetFirstVisitsForPageLoad(): void {
  decided.clear();
}
