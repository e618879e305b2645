// On the fan app's pages (/pwa/{username}): tells the page the extension is here, so it shows
// "Add to browser", and passes the fan's press on to the worker, which follows the creator.
import type { WorkerRequest, WorkerResponse } from './lib/messages.ts';

document.documentElement.dataset.fanpilotExtension = 'ready';
window.dispatchEvent(new Event('fanpilot:extension-ready'));

window.addEventListener('message', (event) => {
  if (event.source !== window || event.origin !== location.origin) return;
  const data = event.data as { type?: unknown; creator?: unknown } | null;
  if (data?.type !== 'fanpilot:follow' || typeof data.creator !== 'string') return;
  const request: WorkerRequest = { type: 'follow', username: data.creator };
  void ask(request).then((answer) => {
    window.postMessage(
      {
        type: 'fanpilot:followed',
        creator: data.creator,
        ok: answer.ok,
        error: answer.ok ? null : answer.error,
      },
      location.origin,
    );
  });
});

/**
 * The worker's answer. A worker the browser stopped is woken by the message, but one still starting
 * may not listen yet ("Receiving end does not exist"): asked again a moment later, three times in
 * all; then the page is told it failed (its button offers to try again) rather than left waiting.
 */
async function ask(request: WorkerRequest): Promise<WorkerResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await chrome.runtime.sendMessage(request)) as WorkerResponse;
    } catch {
      if (attempt >= 3) return { ok: false, error: 'The extension did not answer. Please try again.' };
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
}
