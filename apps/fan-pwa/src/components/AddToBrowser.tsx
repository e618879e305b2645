import { useEffect, useState } from 'react';
import { texts } from '../texts.ts';

/** Whether the Fanpilot extension runs on this page (its content script marks the document). */
function useExtension(): boolean {
  const marked = () => document.documentElement.dataset.fanpilotExtension === 'ready';
  const [present, setPresent] = useState(marked);
  useEffect(() => {
    const update = () => setPresent(marked());
    window.addEventListener('fanpilot:extension-ready', update);
    return () => window.removeEventListener('fanpilot:extension-ready', update);
  }, []);
  return present;
}

/**
 * "Add to browser": follows this creator in the Fanpilot extension's side panel (docs/extension.md).
 * Shown only when the extension is installed; the extension answers whether it followed.
 */
export function AddToBrowser({ creator }: { creator: string }) {
  const present = useExtension();
  const [state, setState] = useState<'idle' | 'adding' | 'added' | 'failed'>('idle');
  useEffect(() => {
    const listener = (event: MessageEvent) => {
      if (event.source !== window || event.origin !== window.location.origin) return;
      const data = event.data as { type?: unknown; creator?: unknown; ok?: unknown } | null;
      if (data?.type === 'fanpilot:followed' && data.creator === creator)
        setState(data.ok ? 'added' : 'failed');
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, [creator]);
  if (!present) return null;
  return (
    <button
      type="button"
      disabled={state === 'adding' || state === 'added'}
      title={texts.addToBrowserHint}
      onClick={() => {
        setState('adding');
        window.postMessage({ type: 'fanpilot:follow', creator }, window.location.origin);
      }}
      className="shrink-0 rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-70"
    >
      {state === 'added'
        ? texts.addedToBrowser
        : state === 'failed'
          ? texts.addToBrowserFailed
          : texts.addToBrowser}
    </button>
  );
}
