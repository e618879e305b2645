import { brandNameOf, POLL_MOBILE_CHAT_MS } from '@fanpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { AddToBrowser } from '../components/AddToBrowser.tsx';
import { AnnouncementBanner } from '../components/AnnouncementBanner.tsx';
import { useDismissedNotice, whichBanners } from '../components/banners.ts';
import { ChatHeader } from '../components/ChatHeader.tsx';
import { Composer } from '../components/Composer.tsx';
import { CreatorIntro } from '../components/CreatorIntro.tsx';
import { FanNameControl } from '../components/FanNameControl.tsx';
import { type CitationTap, MessageList } from '../components/MessageList.tsx';
import {
  ApiError,
  errorMessage,
  fetchCitedPassage,
  fetchCreatorProfile,
  type PublicCreator,
  rateAnswer,
} from '../lib/api.ts';
import { useCreatorDocument, useOnline } from '../lib/browser.ts';
import { continueInApp } from '../lib/continueInApp.ts';
import { embed } from '../lib/embed.ts';
import { clearTransferFragment, readTransferToken } from '../lib/transfer.ts';
import { memoryTexts } from '../memory/texts.ts';
import { MessagePage } from '../pages/MessagePage.tsx';
import { readRestoreToken } from '../plans/api.ts';
import { usePushChoice } from '../push/choice.ts';
import { texts } from '../texts.ts';
import { useFanChat } from './useFanChat.ts';

// Loaded only when used: moving a chat away (with the QR encoder), and taking one over from a link.
const TransferPanel = lazy(() => import('../transfer/TransferPanel.tsx'));
const MemoryPanel = lazy(() => import('../memory/MemoryPanel.tsx'));
const RedeemTransfer = lazy(() => import('../transfer/RedeemTransfer.tsx'));
// The creator's plan (record 0043): the allowance, the plan card, the subscription; a restore link.
const PlanPanel = lazy(() => import('../plans/PlanPanel.tsx'));
const RedeemRestore = lazy(() => import('../plans/RedeemRestore.tsx'));
// The passage viewer: loaded when a file citation is first tapped.
const CitationViewer = lazy(() => import('../citations/CitationViewer.tsx'));
// Web Push: loaded once the fan has asked something, never on page load.
const PushOffer = lazy(() => import('../push/PushControls.tsx').then((m) => ({ default: m.PushOffer })));
const PushToggle = lazy(() => import('../push/PushControls.tsx').then((m) => ({ default: m.PushToggle })));
// Not in an embed: a frame on another site gets no service worker of ours to push to.
const pushSupported = () =>
  embed() === null &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  typeof Notification !== 'undefined';

/** The fan's chat with one creator: /pwa/:username, or /fanchat-mobile and /mobile-chat with ?creator=. */
export function ChatScreen({ username }: { username: string }) {
  const profile = useQuery({
    queryKey: ['creator', username.toLowerCase()],
    queryFn: () => fetchCreatorProfile(username),
    // Online state and the announcement change while the fan reads; they follow the chat's poll.
    refetchInterval: (query) =>
      query.state.error instanceof ApiError && query.state.error.status === 404 ? false : POLL_MOBILE_CHAT_MS,
  });
  useCreatorDocument(username, profile.data ? texts.chatTitle(brandNameOf(profile.data)) : texts.appTitle);
  // Opened from a transfer link: the token leaves the address at once, and is used once.
  const [transferToken, setTransferToken] = useState(() => readTransferToken(window.location.hash));
  useEffect(() => {
    if (transferToken) clearTransferFragment(window.location, window.history);
  }, [transferToken]);

  // Opened from a restore link mailed to a subscriber: the same, for the subscriber's chat.
  const [restoreToken, setRestoreToken] = useState(() => readRestoreToken(window.location.hash));
  useEffect(() => {
    if (restoreToken) clearTransferFragment(window.location, window.history);
  }, [restoreToken]);
  // A link pasted into this open tab changes only the fragment (no reload): it is used all the same.
  useEffect(() => {
    const onHashChange = () => {
      const restore = readRestoreToken(window.location.hash);
      if (restore) setRestoreToken(restore);
      const transfer = readTransferToken(window.location.hash);
      if (transfer) setTransferToken(transfer);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  if (restoreToken) {
    return (
      <Suspense fallback={<ChatSkeleton />}>
        <RedeemRestore token={restoreToken} onDone={() => setRestoreToken(null)} />
      </Suspense>
    );
  }
  if (transferToken) {
    return (
      <Suspense fallback={<ChatSkeleton />}>
        <RedeemTransfer token={transferToken} onDone={() => setTransferToken(null)} />
      </Suspense>
    );
  }
  if (profile.data) return <Chat creator={profile.data} />;
  if (profile.error) {
    if (profile.error instanceof ApiError && profile.error.status === 404) {
      return <MessagePage heading={texts.creatorNotFoundHeading} text={texts.creatorNotFoundText} />;
    }
    const offline = !(profile.error instanceof ApiError);
    return (
      <MessagePage
        heading={offline ? texts.offlineHeading : texts.loadFailedHeading}
        text={offline ? texts.offlineText : texts.loadFailedText}
        action={{ label: texts.retry, onClick: () => void profile.refetch() }}
      />
    );
  }
  return <ChatSkeleton />;
}

function Chat({ creator }: { creator: PublicCreator }) {
  const chat = useFanChat(creator.username);
  const online = useOnline();
  const [moving, setMoving] = useState(false);
  const [remembering, setRemembering] = useState(false);
  const [citation, setCitation] = useState<CitationTap | null>(null);
  const canMove = !chat.heldElsewhere && chat.messages.length > 0;
  const push =
    !chat.heldElsewhere && chat.messages.some((m) => m.from === 'fan') && pushSupported()
      ? { creator: creator.username, creatorName: creator.name, fanId: chat.fanId }
      : null;
  const pushChoice = usePushChoice(creator.username);
  const [dismissedNotice, dismissNotice] = useDismissedNotice(creator.username);
  // The AI cannot answer now (no chatbot, no credits, today's budget used up): the creator will.
  const creatorAnswers = !creator.isOnline && creator.aiAvailable === false;
  const banners = whichBanners({
    offline: !online,
    pushOffer: push !== null && pushChoice === null,
    personal: creatorAnswers,
    announcement: Boolean(creator.notice?.message) && creator.notice?.id !== dismissedNotice,
  });
  return (
    <div className="app-frame mx-auto flex max-w-2xl flex-col bg-white">
      <ChatHeader
        creator={creator}
        {...(embed()
          ? {
              // The widget moves the chat to the fan app in a new tab with the same transfer link.
              onMoveChat: canMove
                ? () =>
                    void continueInApp(creator.username, chat.fanId).catch(() =>
                      chat.setError(texts.continueInAppFailed),
                    )
                : undefined,
              moveLabel: texts.continueInApp,
              moveHint: texts.continueInAppHint,
            }
          : { onMoveChat: canMove ? () => setMoving(true) : undefined })}
        extra={
          <>
            {embed() === null && <AddToBrowser creator={creator.username} />}
            {!chat.heldElsewhere && (
              <button
                type="button"
                onClick={() => setRemembering(true)}
                title={memoryTexts.openHint}
                data-testid="open-memory"
                className="shrink-0 rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
              >
                {memoryTexts.open}
              </button>
            )}
            {push && (
              <Suspense fallback={null}>
                <PushToggle {...push} />
              </Suspense>
            )}
          </>
        }
      />
      {remembering && (
        <Suspense fallback={null}>
          <MemoryPanel
            creator={creator.username}
            creatorName={creator.name}
            fanId={chat.fanId}
            onClose={() => setRemembering(false)}
          />
        </Suspense>
      )}
      {moving && (
        <Suspense fallback={null}>
          <TransferPanel creator={creator.username} fanId={chat.fanId} onClose={() => setMoving(false)} />
        </Suspense>
      )}
      {/* Information always shows, stacked: no connection, that the creator answers personally,
          the announcement (until dismissed); the notification offer waits below it (record 0073). */}
      {chat.forgot && (
        <p
          role="status"
          data-testid="memory-forgot"
          className="shrink-0 border-b border-slate-200 bg-slate-50 px-4 py-1.5 text-center text-xs text-slate-800"
        >
          {chat.forgot === 'cleared' ? memoryTexts.cleared : memoryTexts.dropped}
        </p>
      )}
      {banners.includes('offline') && (
        <p role="status" className="shrink-0 bg-slate-800 px-4 py-1.5 text-center text-xs text-white">
          {texts.offlineBanner}
        </p>
      )}
      {banners.includes('personal') && (
        <p
          role="status"
          data-testid="answers-personally"
          className="shrink-0 border-b border-amber-200 bg-amber-50 px-4 py-1.5 text-center text-xs text-amber-900"
        >
          {texts.willAnswerPersonally(creator.name)}
        </p>
      )}
      {banners.includes('announcement') && creator.notice && (
        <AnnouncementBanner notice={creator.notice} onDismiss={() => dismissNotice(creator.notice?.id)} />
      )}
      {banners.includes('push') && push && (
        <Suspense fallback={null}>
          <PushOffer {...push} />
        </Suspense>
      )}
      <MessageList
        history={chat.messages}
        locals={chat.locals}
        drafts={chat.drafts}
        creatorName={creator.name}
        creatorAnswers={creatorAnswers}
        openingLines={chat.heldElsewhere ? [] : (creator.initialMessages ?? [])}
        stickToBottomSignal={chat.sendSignal}
        showEmptyHint={!chat.heldElsewhere}
        onOpenCitation={setCitation}
        onRate={chat.heldElsewhere ? undefined : (messageId, body) => rateAnswer(chat.fanId, messageId, body)}
        intro={<CreatorIntro creator={creator} />}
      />
      {citation && (
        <Suspense fallback={null}>
          <CitationViewer
            key={`${citation.messageId}-${citation.n}`}
            fanId={chat.fanId}
            citation={citation}
            load={fetchCitedPassage}
            describeError={errorMessage}
            onClose={() => setCitation(null)}
          />
        </Suspense>
      )}
      {chat.heldElsewhere ? (
        <div
          role="alert"
          className="shrink-0 border-t border-slate-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p>{texts.otherBrowsersChat}</p>
          <button
            type="button"
            onClick={chat.startNewChat}
            className="mt-2 rounded-full bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
          >
            {texts.startNewChat}
          </button>
        </div>
      ) : (
        <>
          <Suspense fallback={null}>
            <PlanPanel creator={creator.username} fanId={chat.fanId} messageCount={chat.messages.length} />
          </Suspense>
          <Composer
            onSend={chat.send}
            error={chat.error}
            hint={chat.hint}
            onError={chat.setError}
            restore={chat.restore}
            footer={<FanNameControl name={chat.fanName} onSave={chat.setFanName} />}
          />
        </>
      )}
    </div>
  );
}

/** Same frame and header height as the chat, so nothing moves when the creator arrives. */
function ChatSkeleton() {
  return (
    <div className="app-frame mx-auto flex max-w-2xl flex-col bg-white" aria-busy="true">
      <div className="flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 px-4">
        <div className="size-11 rounded-full bg-slate-200" />
        <div className="flex-1 space-y-2">
          <div className="h-3.5 w-32 rounded bg-slate-200" />
          <div className="h-3 w-20 rounded bg-slate-100" />
        </div>
      </div>
      <p className="sr-only" role="status">
        {texts.loading}
      </p>
      <div className="flex-1 bg-slate-50" />
    </div>
  );
}
