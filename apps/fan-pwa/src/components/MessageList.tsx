import { AI_SENDER } from '@fanpilot/contracts';
import { formatFileSize } from '@fanpilot/ui/format';
import { CITATION_MARKER_CLASS, LinkifiedText } from '@fanpilot/ui/LinkifiedText';
import type { ReactNode } from 'react';
import { useLayoutEffect, useRef } from 'react';
import type { FanChatMessage } from '../lib/api.ts';
import { formatMessageTime } from '../lib/format.ts';
import type { LocalMessage } from '../lib/localMessages.ts';
import { texts } from '../texts.ts';
import { PaperclipIcon } from './PaperclipIcon.tsx';
import { RateAnswer } from './RateAnswer.tsx';

const NEAR_BOTTOM_PX = 96;

const chipClass =
  'block max-w-full truncate rounded-full border border-brand-200 bg-brand-50 px-2.5 py-1 text-xs font-medium text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

interface Bubble {
  key: string;
  side: 'fan' | 'reply';
  sender: string;
  text: string;
  time: string;
  attachment?: { name: string; size: number } | undefined;
  note?: string | undefined;
  /** 'draft': an AI answer still being written (not stored, no sources or rating yet). */
  kind: 'fan' | 'creator' | 'ai' | 'draft' | 'queued' | 'sent' | 'opening';
  /** An AI answer's sources, as chips the fan can open (with their position in its sources). */
  citations?: { source: Citation; n: number }[] | undefined;
  /** The server's id of the message (stored messages only). */
  messageId?: string | undefined;
  /** An AI answer's sources, all of them: its [n] markers cite sources[n - 1]. */
  sources?: Citation[] | undefined;
  /** The fan's rating of an AI answer. */
  rating?: FanChatMessage['rating'];
}

/** What the fan's rating of an answer sends. */
export type RateHandler = (
  messageId: string,
  body: { rating: 'up' | 'down' | null; comment?: string },
) => Promise<unknown>;

type Citation = NonNullable<FanChatMessage['sources']>[number];

/** A file's citation opens its passage in the app's viewer; others link to the page or video. */
const isFileCitation = (c: Citation) => c.kind === 'pdf' || c.kind === 'file';

/** A file citation the fan tapped: which answer, and which of its sources. */
export interface CitationTap {
  messageId: string;
  n: number;
  title: string;
}

/** "p. 4" for a PDF page, "1:35" for a video moment. */
function citationWhere(c: Citation): string | null {
  if (c.kind === 'pdf' && c.page) return texts.citationPage(c.page);
  if (c.kind === 'video' && c.seconds !== undefined) {
    const m = Math.floor(c.seconds / 60);
    const sec = String(c.seconds % 60).padStart(2, '0');
    return `${m}:${sec}`;
  }
  return null;
}

/** An AI answer being written (the event stream's drafts), before it is stored. */
export interface AnswerDraft {
  replyTo: string;
  text: string;
}

function toBubbles(
  history: FanChatMessage[],
  locals: LocalMessage[],
  creatorName: string,
  openingLines: string[],
  drafts: AnswerDraft[] = [],
  creatorAnswers = false,
): Bubble[] {
  // The chatbot's opening lines start every conversation (not stored, not charged).
  const opening = openingLines
    .filter((line) => line.trim())
    .map(
      (line, i): Bubble => ({
        key: `o-${i}`,
        side: 'reply',
        sender: texts.aiLabel,
        text: line.trim(),
        time: '',
        kind: 'opening',
      }),
    );
  const fromServer = history.map((message): Bubble => {
    const attachment = message.fileAttachment
      ? { name: message.fileAttachment.originalFilename, size: message.fileAttachment.fileSize }
      : undefined;
    const base = { key: `m-${message.id}`, text: message.message, time: message.created_at, attachment };
    if (message.from === 'fan') {
      // Handed over by the AI, or waiting while the AI cannot answer at all (record 0073).
      const waits =
        message.handedToCreator || (creatorAnswers && message.status === 'pending' && !message.replyTo);
      const note = waits ? texts.willAnswerPersonally(creatorName) : undefined;
      return { ...base, side: 'fan', sender: texts.you, kind: 'fan', note };
    }
    if (message.from === AI_SENDER) {
      const sources = message.sources ?? [];
      const citations = sources.map((source, n) => ({ source, n }));
      return {
        ...base,
        side: 'reply',
        sender: texts.aiLabel,
        kind: 'ai',
        citations,
        sources,
        messageId: message.id,
        rating: message.rating,
      };
    }
    return { ...base, side: 'reply', sender: creatorName, kind: 'creator' };
  });
  const pending = locals.map(
    (local): Bubble => ({
      key: `l-${local.id}`,
      side: 'fan',
      sender: texts.you,
      text: local.text,
      time: new Date(local.createdAt).toISOString(),
      attachment: local.attachment
        ? { name: local.attachment.filename, size: local.attachment.size }
        : undefined,
      note: local.state === 'queued' ? texts.waitingForConnection : undefined,
      kind: local.state,
    }),
  );
  // A draft shows until its question's stored answer arrives (then that answer replaces it).
  const answered = new Set(history.filter((m) => m.from !== 'fan' && m.replyTo).map((m) => m.replyTo));
  const asked = new Set(history.filter((m) => m.from === 'fan').map((m) => m.id));
  const writing = drafts
    .filter((draft) => draft.text.trim() && !answered.has(draft.replyTo))
    .map(
      (draft): Bubble => ({
        key: `d-${draft.replyTo}`,
        side: 'reply',
        sender: texts.aiLabel,
        text: draft.text,
        time: '',
        kind: 'draft',
        note: texts.aiWriting,
      }),
    );
  // Each draft under its own question: after the history when the question is in it, else after
  // this browser's sent messages (the question is one of them until the next history read).
  const underHistory = writing.filter((b) => asked.has(b.key.slice(2)));
  const underPending = writing.filter((b) => !asked.has(b.key.slice(2)));
  return [...opening, ...fromServer, ...underHistory, ...pending, ...underPending];
}

export function MessageList({
  history,
  locals,
  creatorName,
  stickToBottomSignal,
  showEmptyHint = true,
  openingLines = [],
  drafts = [],
  onOpenCitation,
  onRate,
  intro,
  creatorAnswers = false,
}: {
  history: FanChatMessage[];
  /** The AI cannot answer now (the creator Offline): pending questions say the creator will. */
  creatorAnswers?: boolean;
  /** AI answers being written, streamed from the chat's event stream. */
  drafts?: AnswerDraft[];
  /** The fan rates an AI answer (no thumbs without it). */
  onRate?: RateHandler | undefined;
  /** Above the conversation: who the fan is talking to, in the creator's own words (issue 29). */
  intro?: ReactNode;
  /** A file citation was tapped: show its passage. */
  onOpenCitation?: ((tap: CitationTap) => void) | undefined;
  /** The chatbot's initialMessages: its first bubbles in every conversation. */
  openingLines?: string[];
  locals: LocalMessage[];
  creatorName: string;
  /** False when the chat cannot be used here (held by another browser): no "Say hello" invitation. */
  showEmptyHint?: boolean;
  /** Changes when the fan sends, to bring the newest message into view whatever the scroll position. */
  stickToBottomSignal: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const nearBottom = useRef(true);
  const bubbles = toBubbles(history, locals, creatorName, openingLines, drafts, creatorAnswers);
  const hasConversation = bubbles.some((b) => b.kind !== 'opening');
  // A growing draft keeps the newest words in view, as a new message does.
  const newestKey = `${bubbles.length}:${bubbles[bubbles.length - 1]?.key ?? ''}:${drafts.map((d) => d.text.length).join()}`;

  useLayoutEffect(() => {
    nearBottom.current = true;
  }, [stickToBottomSignal]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && nearBottom.current) el.scrollTop = el.scrollHeight;
  }, [newestKey, stickToBottomSignal]);

  // A keyboard opening shrinks the list; keep the newest message in view when the fan was there.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
      }}
      className="message-log min-h-0 flex-1 overflow-y-auto bg-slate-50 px-3 py-4"
    >
      {intro}
      <div role="log" aria-live="polite" aria-label={texts.conversation} className="flex flex-col gap-3">
        {bubbles.map((bubble) => (
          <MessageBubble key={bubble.key} bubble={bubble} onOpenCitation={onOpenCitation} onRate={onRate} />
        ))}
        {!hasConversation && showEmptyHint && (
          <p className="mx-auto mt-8 max-w-xs text-center text-sm text-slate-600">
            {texts.emptyConversation(creatorName)}
          </p>
        )}
      </div>
    </div>
  );
}

/** A citation marker: a small link to source n (the page, the video moment or the passage viewer). */
function Marker({
  n,
  bubble,
  onOpenCitation,
}: {
  n: number;
  bubble: Bubble;
  onOpenCitation?: ((tap: CitationTap) => void) | undefined;
}) {
  const c = bubble.sources?.[n - 1];
  // A marker naming no source is left out, never shown raw.
  if (!c) return null;
  const label = texts.sourceMarker(n, c.title);
  const { messageId } = bubble;
  if (isFileCitation(c)) {
    return (
      <button
        type="button"
        aria-label={label}
        title={c.title}
        data-testid="citation-marker"
        disabled={!messageId || !onOpenCitation}
        onClick={() => messageId && onOpenCitation?.({ messageId, n: n - 1, title: c.title })}
        className={CITATION_MARKER_CLASS}
      >
        {n}
      </button>
    );
  }
  if (c.url) {
    return (
      <a
        href={c.url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={label}
        title={c.title}
        data-testid="citation-marker"
        className={CITATION_MARKER_CLASS}
      >
        {n}
      </a>
    );
  }
  return (
    <sup title={label} data-testid="citation-marker" className={CITATION_MARKER_CLASS}>
      {n}
    </sup>
  );
}

function MessageBubble({
  bubble,
  onOpenCitation,
  onRate,
}: {
  bubble: Bubble;
  onOpenCitation?: ((tap: CitationTap) => void) | undefined;
  onRate?: RateHandler | undefined;
}) {
  const fan = bubble.side === 'fan';
  const tone = fan
    ? bubble.kind === 'queued'
      ? 'border border-dashed border-brand-700 bg-brand-50 text-slate-900'
      : 'bg-brand-700 text-white'
    : bubble.kind === 'ai' || bubble.kind === 'draft' || bubble.kind === 'opening'
      ? 'border border-slate-200 bg-white text-slate-900'
      : 'bg-slate-200 text-slate-900';
  const linkTone = fan && bubble.kind !== 'queued' ? 'text-white underline' : 'text-brand-800 underline';
  return (
    <div
      className={`flex flex-col ${fan ? 'items-end' : 'items-start'}`}
      data-testid={`message-${bubble.kind}`}
      aria-busy={bubble.kind === 'draft' || undefined}
    >
      <span className={`mb-0.5 px-1 text-xs font-medium text-slate-600 ${fan ? 'sr-only' : ''}`}>
        {bubble.sender}
      </span>
      <div className={`max-w-[85%] rounded-2xl px-3.5 py-2 text-[15px] leading-snug ${tone}`}>
        <p className="whitespace-pre-wrap break-words">
          <LinkifiedText
            text={bubble.text}
            linkClassName={linkTone}
            {...(bubble.kind === 'ai'
              ? {
                  renderCitation: (n: number) => (
                    <Marker n={n} bubble={bubble} onOpenCitation={onOpenCitation} />
                  ),
                }
              : {})}
          />
        </p>
        {bubble.attachment && (
          <p
            className={`mt-1.5 flex items-center gap-1.5 rounded-lg px-2 py-1 text-xs ${
              fan && bubble.kind !== 'queued' ? 'bg-white/15' : 'bg-slate-100 text-slate-700'
            }`}
          >
            <PaperclipIcon size={14} />
            <span className="sr-only">{texts.attachment}: </span>
            <span className="min-w-0 truncate">{bubble.attachment.name}</span>
            <span className="shrink-0">({formatFileSize(bubble.attachment.size)})</span>
          </p>
        )}
      </div>
      {bubble.citations && bubble.citations.length > 0 && (
        <ul aria-label={texts.sources} className="mt-1 flex max-w-[85%] flex-wrap gap-1.5">
          {bubble.citations.map(({ source: c, n }) => {
            const where = citationWhere(c);
            const label = (
              <>
                {c.title}
                {where && <span className="text-brand-600"> · {where}</span>}
              </>
            );
            const { messageId } = bubble;
            return (
              <li key={n} className="min-w-0">
                {!isFileCitation(c) && !c.url ? (
                  <span data-testid="citation" className={chipClass}>
                    {label}
                  </span>
                ) : isFileCitation(c) ? (
                  <button
                    type="button"
                    data-testid="citation"
                    disabled={!messageId || !onOpenCitation}
                    onClick={() => messageId && onOpenCitation?.({ messageId, n, title: c.title })}
                    className={chipClass}
                  >
                    {label}
                  </button>
                ) : (
                  <a
                    href={c.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="citation"
                    className={chipClass}
                  >
                    {label}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {bubble.kind === 'ai' && bubble.messageId && onRate && (
        <RateAnswer initial={bubble.rating} onRate={(body) => onRate(bubble.messageId as string, body)} />
      )}
      {bubble.kind !== 'opening' && (
        <span className="mt-0.5 px-1 text-[11px] text-slate-600">
          {bubble.note ?? <time dateTime={bubble.time}>{formatMessageTime(bubble.time)}</time>}
        </span>
      )}
    </div>
  );
}
