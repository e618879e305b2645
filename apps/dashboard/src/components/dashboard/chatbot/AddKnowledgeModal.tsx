import type { Chatbot } from '@fanpilot/contracts';
import { SITE_MAX_PAGES } from '@fanpilot/contracts';
import { Button, Modal, toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { chatbotQuery, knowledgeProgressQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { textFieldClass } from '../../field-classes.ts';
import { GlobeIcon, VideoIcon } from '../../icons.tsx';
import { KnowledgeFileForm } from './KnowledgeFileForm.tsx';

interface AddKnowledgeModalProps {
  username: string;
  chatbot: Chatbot;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const t = TEXT.addKnowledge;

/**
 * Add Knowledge Source: a web URL, a YouTube URL or a file. Each starts processing in the
 * background and clears its input; the Knowledge Base card shows the progress.
 */
export function AddKnowledgeModal({ username, chatbot, open, onOpenChange }: AddKnowledgeModalProps) {
  const queryClient = useQueryClient();
  const ids = { url: useId(), youtube: useId() };
  const [url, setUrl] = useState('');
  const [youtubeUrl, setYoutubeUrl] = useState('');

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: knowledgeProgressQuery(chatbot.id).queryKey }),
      queryClient.invalidateQueries({ queryKey: chatbotQuery(username).queryKey }),
    ]);

  const addUrl = useMutation({
    mutationFn: (value: string) => api.call('addKnowledge', { body: { chatbotId: chatbot.id, url: value } }),
    onSuccess: () => {
      setUrl('');
      toast({ title: t.urlAdded, description: t.processingNote, variant: 'success' });
      // Added: the dialog has done its work (issue 29); progress shows on the Knowledge Base card.
      onOpenChange(false);
      return refresh();
    },
    onError: (error) =>
      toast({ title: t.urlFailed, description: serverMessage(error) ?? t.retryHint, variant: 'error' }),
  });

  const addYoutube = useMutation({
    mutationFn: (value: string) =>
      api.call('addYoutubeKnowledge', { params: { id: chatbot.id }, body: { youtubeUrl: value } }),
    onSuccess: (item) => {
      setYoutubeUrl('');
      onOpenChange(false);
      toast({
        title: t.youtubeAdded(item?.title || TEXT.knowledge.titles.youtube),
        description: t.processingNote,
        variant: 'success',
      });
      return refresh();
    },
    onError: (error) =>
      toast({ title: t.youtubeFailed, description: serverMessage(error) ?? t.retryHint, variant: 'error' }),
  });

  // docs/product.md#sources: inputs are trimmed and ignored when empty or while their request is pending.
  const submitUrl = (event: FormEvent) => {
    event.preventDefault();
    const value = url.trim();
    if (!value || addUrl.isPending) return;
    addUrl.mutate(value);
  };
  const submitYoutube = (event: FormEvent) => {
    event.preventDefault();
    const value = youtubeUrl.trim();
    if (!value || addYoutube.isPending) return;
    addYoutube.mutate(value);
  };
  const fieldset = 'rounded-xl border border-slate-200 p-4';
  // The forms are noValidate: the browser's own check of type="url" would silently stop an invalid
  // address, so the api's refusal would never show as 'URL processing failed' / 'YouTube processing failed'.
  const legend = 'flex items-center gap-2 px-1 text-sm font-semibold text-slate-900';
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t.title}
      description={t.description}
      closeLabel={TEXT.common.close}
    >
      <div className="space-y-4">
        <form onSubmit={submitUrl} noValidate className={fieldset}>
          <label htmlFor={ids.url} className={legend}>
            <GlobeIcon className="size-4 text-brand-600" />
            {t.urlLabel}
          </label>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <input
              id={ids.url}
              type="url"
              inputMode="url"
              value={url}
              placeholder={t.urlPlaceholder}
              onChange={(e) => setUrl(e.target.value)}
              aria-describedby={`${ids.url}-hint`}
              className={textFieldClass}
            />
            <Button type="submit" disabled={addUrl.isPending} className="shrink-0">
              {addUrl.isPending ? t.adding : t.addUrl}
            </Button>
          </div>
          <p id={`${ids.url}-hint`} className="mt-1.5 text-xs text-slate-600">
            {t.siteHint(SITE_MAX_PAGES)}
          </p>
        </form>

        <form onSubmit={submitYoutube} noValidate className={fieldset}>
          <label htmlFor={ids.youtube} className={legend}>
            <VideoIcon className="size-4 text-brand-600" />
            {t.youtubeLabel}
          </label>
          <div className="mt-2 flex flex-col gap-2 sm:flex-row">
            <input
              id={ids.youtube}
              type="url"
              inputMode="url"
              value={youtubeUrl}
              placeholder={t.youtubePlaceholder}
              onChange={(e) => setYoutubeUrl(e.target.value)}
              className={textFieldClass}
            />
            <Button type="submit" disabled={addYoutube.isPending} className="shrink-0">
              {addYoutube.isPending ? t.adding : t.addYoutube}
            </Button>
          </div>
        </form>

        <KnowledgeFileForm chatbotId={chatbot.id} onUploaded={refresh} />
      </div>
    </Modal>
  );
}
