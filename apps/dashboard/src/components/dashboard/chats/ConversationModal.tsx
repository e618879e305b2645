import {
  AI_SENDER,
  type ConversationPage,
  type ConversationSummary,
  isFileCitation,
  type Message,
  type MessageSource,
  urlOf,
} from '@fanpilot/contracts';
import { Button, cn, Modal } from '@fanpilot/ui';
import { formatFileSize } from '@fanpilot/ui/format';
import { LinkifiedText } from '@fanpilot/ui/LinkifiedText';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { usePollNewestPage } from '../../../hooks/usePollNewestPage.ts';
import { api, serverMessage } from '../../../lib/api.ts';
import { isPending } from '../../../lib/conversations.ts';
import {
  fanDisplayName,
  fanMessageAuthor,
  loadedMessages,
  mergeNewestMessages,
  newestPendingOf,
  restoredScrollTop,
  type ScrollPlace,
  scrollPlace,
} from '../../../lib/inbox.ts';
import { conversationQuery, fetchConversationPage } from '../../../lib/queries.ts';
import type { ResponseMode } from '../../../lib/response-mode.ts';
import { DownloadIcon, FileIcon, ImageIcon } from '../../icons.tsx';
import { CitedAnswerText } from '../answers/CitedAnswerText.tsx';
import { CorrectionForm } from '../answers/CorrectionForm.tsx';
import { ANSWERS_TEXT } from '../answers/texts.ts';
import { Badge } from '../common/Badge.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { FanMemoryPanel } from './FanMemoryPanel.tsx';
import { ReplyComposer, ReplyComposerButtons } from './ReplyComposer.tsx';
import { ReplyDraftNote, useReplyDraft } from './ReplyDraft.tsx';
import { CONVERSATION_TEXT } from './texts.ts';
import { useSendToFan } from './useSendToFan.ts';

interface ConversationModalProps {
  username: string;
  /** The row the creator opened; its `newestPending` is answered when no pending message is loaded. */
  conversation: ConversationSummary | null;
  onOpenChange: (open: boolean) => void;
}

const t = CONVERSATION_TEXT;

/** Scrolled this close to the top, the history loads the page of earlier messages. */
const LOAD_EARLIER_AT_PX = 48;

/**
 * A fan's conversation, read from its newest end and opened at the newest message; earlier pages
 * load at the top. Below, a box that answers or messages the fan (docs/product.md#conversation-modal).
 */
export function ConversationModal({ username, conversation, onOpenChange }: ConversationModalProps) {
  const fanName = fanDisplayName(conversation?.fanName);
  return (
    <Modal
      open={conversation !== null}
      onOpenChange={onOpenChange}
      title={conversation ? t.title(fanName) : ''}
      // The specified Close button (below the text box) closes it; a corner X named 'Close' too would make two.
      showCloseButton={false}
      // The body scrolls; the footer with Close and Send stays in view, whatever the draft note adds.
      fill
      className="max-w-2xl"
    >
      {conversation && (
        <ConversationBody
          key={conversation.fanId}
          username={username}
          conversation={conversation}
          onClose={() => onOpenChange(false)}
        />
      )}
    </Modal>
  );
}

function ConversationBody({
  username,
  conversation,
  onClose,
}: {
  username: string;
  conversation: ConversationSummary;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const { fanId } = conversation;
  const pages = useInfiniteQuery(conversationQuery(username, fanId));
  usePollNewestPage<ConversationPage>({
    queryKey: conversationQuery(username, fanId).queryKey,
    fetchNewest: () => fetchConversationPage(username, fanId, null),
    merge: mergeNewestMessages,
    enabled: pages.isSuccess,
  });
  const messages = useMemo(() => loadedMessages(pages.data), [pages.data]);
  // The fan's current name: the newest page's, else the row's; every fan message is labelled with it.
  const fanName = pages.data?.pages[0]?.fanName?.trim() || conversation.fanName?.trim() || null;
  const pendingQuestion = newestPendingOf(messages, conversation.newestPending);
  const mode: ResponseMode = pendingQuestion
    ? { kind: 'answer', messageId: pendingQuestion.id }
    : { kind: 'direct', fanId };
  const send = useSendToFan(username, () => setText(''));
  const replyDraft = useReplyDraft(username, pendingQuestion ?? null, setText);
  const [correcting, setCorrecting] = useState<Message | null>(null);
  const questionOf = (answer: Message) =>
    messages.find((m) => m.id === answer.replyTo && m.from === 'fan')?.message ?? '';

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const loadEarlier = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const scroll = useHistoryScroll(messages, hasNextPage ? loadEarlier : undefined);
  const formId = useId();

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div
        data-testid="conversation-body"
        className="-mx-1 flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-1 pb-1"
      >
        {pages.isPending ? (
          <p role="status" className="text-sm text-slate-600">
            {t.loading}
          </p>
        ) : pages.isError && messages.length === 0 ? (
          <p role="alert" className="text-sm text-red-700">
            {t.loadFailed}
          </p>
        ) : messages.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center text-sm text-slate-600">
            {t.empty}
          </p>
        ) : (
          // Never shrunk by the scrolling body: the history keeps its height, the composer stays below it.
          <div className="relative flex shrink-0 flex-col gap-2">
            {hasNextPage && (
              <Button
                variant="secondary"
                size="sm"
                className="self-center"
                disabled={isFetchingNextPage}
                aria-busy={isFetchingNextPage}
                onClick={loadEarlier}
              >
                {t.loadEarlier}
              </Button>
            )}
            <ol
              ref={scroll.ref}
              onScroll={scroll.onScroll}
              aria-label={t.historyLabel}
              aria-busy={isFetchingNextPage}
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the history scrolls, so keyboard users must be able to reach it
              tabIndex={0}
              // The place is kept by hand when earlier messages come in, so the browser's own anchoring is off.
              className="relative max-h-[40dvh] min-h-24 shrink-0 space-y-3 overflow-y-auto rounded-xl bg-slate-50 p-3 [overflow-anchor:none]"
            >
              {messages.map((message) => (
                <MessageBubble
                  key={message.id}
                  message={message}
                  fanName={fanName}
                  onCorrect={setCorrecting}
                />
              ))}
            </ol>
            {scroll.newBelow && (
              <Button
                size="sm"
                className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow-md"
                onClick={scroll.toBottom}
              >
                {t.newMessages}
              </Button>
            )}
          </div>
        )}

        <FanMemoryPanel username={username} fanId={fanId} />

        {correcting && (
          <CorrectionForm
            key={correcting.id}
            username={username}
            question={questionOf(correcting)}
            messageId={correcting.id}
            canSendToFan
            onDone={() => setCorrecting(null)}
          />
        )}

        <ReplyDraftNote state={replyDraft} />
        <ReplyComposer
          username={username}
          text={text}
          setText={setText}
          label={t.composerLabel}
          placeholder={t.placeholder}
          rows={3}
          hint={
            <>
              {t.keyHint} {mode.kind === 'answer' ? t.answersPending : t.directMessage}
            </>
          }
          pending={send.isPending}
          onSend={(value) =>
            send.mutate({
              mode,
              text: value,
              ...(replyDraft.draftFor ? { draftFor: replyDraft.draftFor } : {}),
            })
          }
          dismissLabel={t.close}
          onDismiss={onClose}
          sendLabel={t.send}
          sendingLabel={t.sending}
          formId={formId}
        />
      </div>
      <ReplyComposerButtons
        formId={formId}
        className="flex shrink-0 justify-end gap-3 border-t border-slate-200 pt-4"
        pending={send.isPending}
        dismissLabel={t.close}
        onDismiss={onClose}
        sendLabel={t.send}
        sendingLabel={t.sending}
      />
    </div>
  );
}

/**
 * Keeps the history's place: it opens at the newest message, stays at the bottom while the creator
 * is there, and otherwise keeps the message they were looking at where it was, whether earlier
 * messages come in above or newer ones below (then `newBelow` offers a jump down). Near the top it
 * asks for earlier messages.
 */
function useHistoryScroll(messages: readonly Message[], onNearTop: (() => void) | undefined) {
  const ref = useRef<HTMLOListElement>(null);
  const place = useRef<ScrollPlace | null>(null);
  const lastId = useRef<string | undefined>(undefined);
  const [newBelow, setNewBelow] = useState(false);

  const measure = useCallback(() => {
    const list = ref.current;
    if (!list) return;
    const items = [...list.children].map((child) => {
      const item = child as HTMLElement;
      return { id: item.dataset.id ?? '', top: item.offsetTop, height: item.offsetHeight };
    });
    place.current = scrollPlace(list, items);
    if (place.current.atBottom) setNewBelow(false);
  }, []);

  useLayoutEffect(() => {
    const list = ref.current;
    if (!list || messages.length === 0) return;
    const previous = place.current;
    const anchor =
      previous && !previous.atBottom
        ? [...list.children].find((child) => (child as HTMLElement).dataset.id === previous.anchorId)
        : undefined;
    list.scrollTop = restoredScrollTop(previous, {
      scrollHeight: list.scrollHeight,
      anchorTop: (anchor as HTMLElement | undefined)?.offsetTop,
    });
    const newest = messages.at(-1)?.id;
    if (previous && !previous.atBottom && lastId.current !== undefined && newest !== lastId.current) {
      setNewBelow(true);
    }
    lastId.current = newest;
    measure();
  }, [messages, measure]);

  const onScroll = () => {
    measure();
    const list = ref.current;
    if (list && onNearTop && list.scrollTop <= LOAD_EARLIER_AT_PX && list.scrollHeight > list.clientHeight) {
      onNearTop();
    }
  };

  const toBottom = () => {
    const list = ref.current;
    if (!list) return;
    list.scrollTop = list.scrollHeight;
    measure();
  };

  return { ref, onScroll, newBelow, toBottom };
}

/** One message of the history; a fan's carries the conversation's fan name (`fanName`), when it has one. */
export function MessageBubble({
  message,
  fanName,
  onCorrect,
}: {
  message: Message;
  fanName: string | null;
  /** The creator corrects this AI answer (no button without it). */
  onCorrect?: ((message: Message) => void) | undefined;
}) {
  const fromFan = message.from === 'fan';
  const fromAi = message.from === AI_SENDER;
  const [openCitation, setOpenCitation] = useState<number | null>(null);
  const author = fromFan
    ? fanMessageAuthor(fanName, message.fanName)
    : message.from === AI_SENDER
      ? t.aiCoach
      : t.creator;
  const attachment = message.fileAttachment;
  return (
    <li data-id={message.id} className={cn('flex', fromFan ? 'justify-start' : 'justify-end')}>
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2.5 text-sm shadow-sm',
          fromFan ? 'rounded-bl-sm bg-white text-slate-900' : 'rounded-br-sm bg-brand-600 text-white',
        )}
      >
        <p className={cn('text-xs font-semibold', fromFan ? 'text-slate-600' : 'text-brand-100')}>{author}</p>
        <p className="mt-0.5 break-words whitespace-pre-wrap">
          {fromFan ? (
            message.message
          ) : fromAi ? (
            <CitedAnswerText
              text={message.message}
              sources={message.sources}
              tone="dark"
              onOpenFile={message.fanId ? (n) => setOpenCitation(openCitation === n ? null : n) : undefined}
            />
          ) : (
            <LinkifiedText text={message.message} />
          )}
        </p>
        {attachment && (
          <div
            className={cn(
              'mt-2 flex items-center gap-2 rounded-lg border p-2',
              fromFan ? 'border-slate-200 bg-slate-50' : 'border-brand-400 bg-brand-700',
            )}
          >
            {attachment.fileType === 'image' ? (
              <ImageIcon className="size-5 shrink-0" />
            ) : (
              <FileIcon className="size-5 shrink-0" />
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate text-xs font-semibold">{attachment.originalFilename}</p>
              <p className="text-xs opacity-80">{formatFileSize(attachment.fileSize)}</p>
            </div>
            <a
              href={urlOf('downloadAttachment', { id: attachment.id })}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t.downloadLabel(attachment.originalFilename)}
              className="inline-flex shrink-0 items-center gap-1 rounded-md bg-white px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50"
            >
              <DownloadIcon className="size-3.5" />
              {t.download}
            </a>
          </div>
        )}
        {message.sources?.some((c) => c.url || isFileCitation(c)) && (
          <Citations
            message={message}
            sources={message.sources}
            open={openCitation}
            setOpen={setOpenCitation}
          />
        )}
        <div
          className={cn(
            'mt-1 flex flex-wrap items-center gap-2 text-xs',
            fromFan ? 'text-slate-600' : 'text-brand-100',
          )}
        >
          <TimeAgo iso={message.timestamp} />
          {isPending(message) && <Badge tone="warning">{t.awaiting}</Badge>}
          {message.rating && (
            <span data-testid="answer-rating" className="rounded-full bg-white/90 px-2 py-0.5 text-slate-900">
              {message.rating.rating === 'up' ? ANSWERS_TEXT.ratedUp : ANSWERS_TEXT.ratedDown}
              {message.rating.comment ? `: “${message.rating.comment}”` : ''}
            </span>
          )}
          {fromAi && onCorrect && (
            <button
              type="button"
              data-testid="correct-answer"
              aria-label={ANSWERS_TEXT.correctLabel}
              onClick={() => onCorrect(message)}
              className="rounded-full bg-white/90 px-2 py-0.5 font-semibold text-brand-800 hover:bg-white"
            >
              {ANSWERS_TEXT.correct}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}

const chipClass =
  'block max-w-full truncate rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-medium text-white underline-offset-2 hover:underline';

function citationWhere(c: MessageSource): string {
  if (c.kind === 'pdf' && c.page) return ` · p. ${c.page}`;
  if (c.kind === 'video' && c.seconds !== undefined) {
    return ` · ${Math.floor(c.seconds / 60)}:${String(c.seconds % 60).padStart(2, '0')}`;
  }
  return '';
}

/**
 * An AI answer's citations: a web page or a video opens at the passage; a file's shows, below, the
 * passage the answer quoted (what the fan sees of the file, docs/decisions/0019-a-creator-s-files-are-theirs.md).
 */
function Citations({
  message,
  sources,
  open,
  setOpen,
}: {
  message: Message;
  sources: MessageSource[];
  open: number | null;
  setOpen: (n: number | null) => void;
}) {
  return (
    <>
      <ul aria-label={t.sources} className="mt-2 flex flex-wrap gap-1.5">
        {sources.map((c, n) =>
          c.url && !isFileCitation(c) ? (
            <li key={`${n}-${c.url}`} className="min-w-0">
              <a href={c.url} target="_blank" rel="noopener noreferrer" className={chipClass}>
                {c.title}
                {citationWhere(c)}
              </a>
            </li>
          ) : isFileCitation(c) && message.fanId ? (
            <li key={`${n}-${c.title}`} className="min-w-0">
              <button
                type="button"
                aria-expanded={open === n}
                onClick={() => setOpen(open === n ? null : n)}
                className={chipClass}
              >
                {c.title}
                {citationWhere(c)}
              </button>
            </li>
          ) : null,
        )}
      </ul>
      {open !== null && message.fanId && (
        <CitedPassageView fanId={message.fanId} messageId={message.id} n={open} />
      )}
    </>
  );
}

function CitedPassageView({ fanId, messageId, n }: { fanId: string; messageId: string; n: number }) {
  const passage = useQuery({
    queryKey: ['fanCitation', fanId, messageId, n],
    queryFn: () => api.call('fanCitation', { params: { fanId, messageId, n } }),
    retry: false,
  });
  return (
    <figure className="mt-2 rounded-lg bg-white/95 p-2.5 text-xs text-slate-900">
      {passage.isPending && <p>{t.passageLoading}</p>}
      {passage.isError && <p>{serverMessage(passage.error) ?? t.passageFailed}</p>}
      {passage.data && (
        <>
          <figcaption className="font-semibold">
            {passage.data.source}
            {passage.data.page !== null ? ` · p. ${passage.data.page}` : ''}
          </figcaption>
          <blockquote className="mt-1 max-h-48 overflow-y-auto whitespace-pre-wrap">
            {passage.data.text}
          </blockquote>
          <p className="mt-1 text-slate-600">
            {passage.data.downloadUrl ? t.passageDownloadable : t.passageOnly}
          </p>
        </>
      )}
    </figure>
  );
}
