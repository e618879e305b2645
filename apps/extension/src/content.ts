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
  void chrome.runtime.sendMessage(request).then((answer: WorkerResponse) => {
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
