const key = (username: string) => `fanpilot.dashboard-visited.${username}`;

/**
 * Whether this is the creator's first visit to their dashboard in this browser: true once, then the
 * visit is remembered (localStorage). Storage that cannot be used (private modes) reads as a return.
 */
export function firstDashboardVisit(
  username: string,
  storage: Storage | undefined = globalThis.localStorage,
): boolean {
  try {
    if (!storage || storage.getItem(key(username)) !== null) return false;
    storage.setItem(key(username), new Date().toISOString());
    return true;
  } catch {
    return false;
  }
}
