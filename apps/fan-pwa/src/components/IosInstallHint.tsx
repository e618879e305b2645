import { useId, useState } from 'react';
import { iosInstallHintWanted } from '../lib/browser.ts';
import { texts } from '../texts.ts';

/** The iOS Share icon (a box with an arrow out of its top), as the fan sees it in Safari's toolbar. */
function ShareIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className="mx-0.5 inline size-4 align-[-3px]"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M12 3v12M8 7l4-4 4 4" />
      <path d="M6 11H5v10h14V11h-1" />
    </svg>
  );
}

/**
 * "Install app" on an iPhone or iPad, where the browser offers no install prompt: a tap shows how
 * (Share, then Add to Home Screen). Nothing once the chat runs from the home screen.
 */
export function IosInstallHint() {
  const [wanted] = useState(iosInstallHintWanted);
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!wanted) return null;
  const [tap, toolbar, then] = texts.iosInstallSteps;
  return (
    <div className="relative shrink-0">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        title={texts.installHint}
        onClick={() => setOpen(!open)}
        className="rounded-full bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        {texts.install}
      </button>
      {open && (
        <section
          id={id}
          aria-label={texts.iosInstallTitle}
          className="absolute top-full right-0 z-20 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-3 text-sm text-slate-800 shadow-lg"
        >
          <p className="font-semibold text-slate-900">{texts.iosInstallTitle}</p>
          <p className="mt-1">
            {tap} <ShareIcon /> {toolbar} {then}
          </p>
          <button
            type="button"
            onClick={() => setOpen(false)}
            className="mt-2 rounded-full border border-slate-300 px-3 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50"
          >
            {texts.iosInstallClose}
          </button>
        </section>
      )}
    </div>
  );
}
