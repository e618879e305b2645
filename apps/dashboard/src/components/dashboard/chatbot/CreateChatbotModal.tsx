import { Button, Modal, toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { chatbotQuery } from '../../../lib/queries.ts';
import { removeUrlRow, urlsToSend } from '../../../lib/url-rows.ts';
import { TEXT } from '../../../texts.ts';
import { textFieldClass } from '../../field-classes.ts';
import { PlusIcon, TrashIcon } from '../../icons.tsx';
import { CREATE_CHATBOT_TEXT } from './texts.ts';

interface CreateChatbotModalProps {
  username: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const t = CREATE_CHATBOT_TEXT;

/** Create AI Chatbot: a name and URL rows (blank rows dropped, at least one row always there). */
export function CreateChatbotModal({ username, open, onOpenChange }: CreateChatbotModalProps) {
  const queryClient = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState('');
  const [rows, setRows] = useState<string[]>(['']);

  const create = useMutation({
    mutationFn: (body: { name: string; urls: string[] }) =>
      api.call('createChatbot', { params: { username }, body }),
    onSuccess: (chatbot) => {
      queryClient.setQueryData(chatbotQuery(username).queryKey, chatbot);
      toast({ title: t.created, variant: 'success' });
      setName('');
      setRows(['']);
      onOpenChange(false);
      return queryClient.invalidateQueries({ queryKey: chatbotQuery(username).queryKey });
    },
    onError: (error) =>
      toast({ title: t.failed, description: serverMessage(error) ?? t.fallback, variant: 'error' }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      toast({ title: t.nameRequired, variant: 'error' });
      return;
    }
    create.mutate({ name: trimmed, urls: urlsToSend(rows) });
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t.title}
      description={t.description}
      closeLabel={TEXT.common.close}
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        <div>
          <label htmlFor={nameId} className="block text-sm font-semibold text-slate-900">
            {t.nameLabel}
          </label>
          <input
            id={nameId}
            value={name}
            maxLength={100}
            placeholder={t.namePlaceholder}
            onChange={(e) => setName(e.target.value)}
            className={`mt-2 ${textFieldClass}`}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-slate-900">{t.urlsLegend}</legend>
          <ul className="mt-2 space-y-2">
            {rows.map((row, index) => (
              <li key={index} className="flex items-center gap-2">
                <label className="sr-only" htmlFor={`${nameId}-url-${index}`}>
                  {t.urlLabel(index + 1)}
                </label>
                <input
                  id={`${nameId}-url-${index}`}
                  type="url"
                  inputMode="url"
                  value={row}
                  placeholder={t.urlPlaceholder}
                  onChange={(e) => setRows(rows.map((r, i) => (i === index ? e.target.value : r)))}
                  className={textFieldClass}
                />
                <button
                  type="button"
                  aria-label={t.removeUrl(index + 1)}
                  disabled={rows.length === 1}
                  onClick={() => setRows(removeUrlRow(rows, index))}
                  className="rounded-md p-2 text-slate-600 hover:bg-red-50 hover:text-red-700 disabled:cursor-not-allowed disabled:opacity-40"
                >
                  <TrashIcon className="size-4" />
                </button>
              </li>
            ))}
          </ul>
          <Button variant="ghost" size="sm" className="mt-2" onClick={() => setRows([...rows, ''])}>
            <PlusIcon className="size-4" />
            {t.addUrl}
          </Button>
        </fieldset>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t.cancel}
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t.creating : t.submit}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
