import { brandNameOf } from '@fanpilot/contracts';
import type { ReactNode } from 'react';
import type { PublicCreator } from '../lib/api.ts';
import { useInstallPrompt } from '../lib/browser.ts';
import { texts } from '../texts.ts';
import { CreatorAvatar } from './CreatorAvatar.tsx';
import { IosInstallHint } from './IosInstallHint.tsx';

export function ChatHeader({
  creator,
  onMoveChat,
  moveLabel = texts.moveChat,
  moveHint = texts.moveChatHint,
  extra,
}: {
  /** The move button's words (the widget: "Continue in the app"). */
  moveLabel?: string;
  moveHint?: string;
  creator: PublicCreator;
  /** More controls at the right (the notifications bell). */
  extra?: ReactNode;
  /** Opens the panel that moves this chat to another phone; no button without it. */
  onMoveChat?: (() => void) | undefined;
}) {
  const { canInstall, install } = useInstallPrompt();
  const status = creator.isOnline ? texts.online : creator.statusText;
  // The brand the creator set up at onboarding: the chatbot's name (else theirs) and their picture.
  const brand = brandNameOf(creator);
  return (
    <header className="flex min-h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white px-4 py-2">
      <CreatorAvatar src={creator.profileImageUrl} name={brand} />
      <div className="min-w-0 flex-1">
        <h1
          className="text-base leading-snug font-semibold break-words text-slate-900"
          data-testid="chat-brand"
        >
          {brand}
        </h1>
        <p className="flex items-center gap-1.5 text-sm text-slate-600" data-testid="creator-status">
          <span
            aria-hidden="true"
            className={`inline-block size-2 rounded-full ${creator.isOnline ? 'bg-green-600' : 'bg-slate-400'}`}
          />
          <span className="min-w-0 break-words">{status}</span>
        </p>
      </div>
      {extra}
      {onMoveChat && (
        <button
          type="button"
          onClick={onMoveChat}
          // The visible label is the accessible name (WCAG 2.5.3 Label in Name); the hint describes it.
          title={moveHint}
          className="shrink-0 rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          {moveLabel}
        </button>
      )}
      {canInstall && (
        <button
          type="button"
          onClick={() => void install()}
          title={texts.installHint}
          className="shrink-0 rounded-full bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          {texts.install}
        </button>
      )}
      {!canInstall && <IosInstallHint />}
    </header>
  );
}
