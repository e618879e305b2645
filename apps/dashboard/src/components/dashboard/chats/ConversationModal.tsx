import type { Message } from '@fanpilot/contracts';
import { cn, Modal } from '@fanpilot/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { byTime, type Conversation, isPending } from '../../../lib/conversations.ts';
import { sizeInKb } from '../../../lib/format.ts';
import { fanMessagesQuery } from '../../../lib/queries.ts';
import { responseMode } from '../../../lib/response-mode.ts';
import { TEXT } from '../../../texts.ts';
import { DownloadIcon, FileIcon, ImageIcon } from '../../icons.tsx';
import { Badge } from '../common/Badge.tsx';
import { LinkifiedText } from '../common/LinkifiedText.tsx';
import { TimeAgo } from '../common/TimeAgo.tsx';
import { ReplyComposer } from './ReplyComposer.tsx';
import { useSendToFan } from './useSendToFan.ts';

interface ConversationModalProps {
  username: string;
  conversation: Conversation | null;
  onOpenChange: (open: boolean) => void;
}

const t = TEXT.conversation;

/** A fan's whole conversation, oldest first, and a box that answers or messages the fan (SPEC section 4). */
export function ConversationModal({ username, conversation, onOpenChange }: ConversationModalProps) {
  return (
    <Modal
      open={conversation !== null}
      onOpenChange={onOpenChange}
      title={conversation ? t.title(conversation.fanName) : ''}
      // SPEC's own Close button (below the text box) closes it; a corner X named 'Close' too would make two.
      showCloseButton={false}
      className="flex max-w-2xl flex-col"
    >
      {conversation && (
        <ConversationBody
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
  conversation: Conversation;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const history = useRef<HTMLOListElement>(null);
  // A fan with an id has their whole conversation read from the api; an anonymous one only has what was grouped.
  const fanMessages = useQuery({
    ...fanMessagesQuery(username, conversation.fanId ?? ''),
    enabled: conversation.fanId !== null,
  });
  const messages = useMemo(
    () =>
      [...(conversation.fanId !== null && fanMessages.data ? fanMessages.data : conversation.messages)].sort(
        byTime,
      ),
    [conversation, fanMessages.data],
  );
  const mode = responseMode({ fanId: conversation.fanId, messages });
  const send = useSendToFan(username, () => setText(''));

  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    // Keep the newest message in view as the conversation grows.
    if (lastId && history.current) history.current.scrollTop = history.current.scrollHeight;
  }, [lastId]);

  const loading = conversation.fanId !== null && fanMessages.isLoading;
  return (
    <div className="flex min-h-0 flex-col gap-4">
      {loading ? (
        <p role="status" className="text-sm text-slate-600">
          {t.loading}
        </p>
      ) : messages.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-slate-50 px-4 py-8 text-center text-sm text-slate-600">
          {t.empty}
        </p>
      ) : (
        <ol
          ref={history}
          aria-label={t.historyLabel}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the history scrolls, so keyboard users must be able to reach it
          tabIndex={0}
          className="max-h-[45vh] space-y-3 overflow-y-auto rounded-xl bg-slate-50 p-3"
        >
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} fanName={conversation.fanName} />
          ))}
        </ol>
      )}

      <ReplyComposer
        username={username}
        text={text}
        setText={setText}
        label={t.composerLabel}
        placeholder={t.placeholder}
        rows={3}
        hint={
          <>
            {t.keyHint}{' '}
            {mode.kind === 'answer' ? t.answersPending : mode.kind === 'direct' ? t.directMessage : ''}
          </>
        }
        pending={send.isPending}
        onSend={(value) => send.mutate({ mode, text: value })}
        dismissLabel={t.close}
        onDismiss={onClose}
        sendLabel={t.send}
        sendingLabel={t.sending}
      />
    </div>
  );
}

function MessageBubble({ message, fanName }: { message: Message; fanName: string }) {
  const fromFan = message.from === 'fan';
  const author = fromFan
    ? message.fanName?.trim() || fanName
    : message.from === 'Creatorai'
      ? t.aiCoach
      : t.creator;
  const attachment = message.fileAttachment;
  return (
    <li className={cn('flex', fromFan ? 'justify-start' : 'justify-end')}>
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2.5 text-sm shadow-sm',
          fromFan ? 'rounded-bl-sm bg-white text-slate-900' : 'rounded-br-sm bg-brand-600 text-white',
        )}
      >
        <p className={cn('text-xs font-semibold', fromFan ? 'text-slate-600' : 'text-brand-100')}>{author}</p>
        <p className="mt-0.5 break-words whitespace-pre-wrap">
          {fromFan ? message.message : <LinkifiedText text={message.message} />}
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
              <p className="text-xs opacity-80">{sizeInKb(attachment.fileSize)}</p>
            </div>
            <a
              href={`/api/files/${encodeURIComponent(attachment.id)}/download`}
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
        {message.sources?.some((c) => c.url) && (
          <ul aria-label={t.sources} className="mt-2 flex flex-wrap gap-1.5">
            {message.sources
              .filter((c) => c.url)
              .map((c) => (
                <li key={c.url} className="min-w-0">
                  <a
                    href={c.url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="block max-w-full truncate rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-medium text-white underline-offset-2 hover:underline"
                  >
                    {c.title}
                    {c.kind === 'pdf' && c.page ? ` · p. ${c.page}` : ''}
                    {c.kind === 'video' && c.seconds !== undefined
                      ? ` · ${Math.floor(c.seconds / 60)}:${String(c.seconds % 60).padStart(2, '0')}`
                      : ''}
                  </a>
                </li>
              ))}
          </ul>
        )}
        <div
          className={cn(
            'mt-1 flex flex-wrap items-center gap-2 text-xs',
            fromFan ? 'text-slate-600' : 'text-brand-100',
          )}
        >
          <TimeAgo iso={message.timestamp} />
          {isPending(message) && <Badge tone="warning">{t.awaiting}</Badge>}
        </div>
      </div>
    </li>
  );
}
