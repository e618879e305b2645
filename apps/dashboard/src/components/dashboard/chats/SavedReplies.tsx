import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { truncate } from '../../../lib/format.ts';
import { templatesQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { textFieldClass } from '../../field-classes.ts';
import { BookmarkIcon, TrashIcon } from '../../icons.tsx';
import { TEMPLATES_TEXT } from './texts.ts';

interface SavedRepliesProps {
  username: string;
  /** The reply being written, which "Save reply" keeps as a template. */
  currentText: string;
  onInsert: (content: string) => void;
}

const t = TEMPLATES_TEXT;

/** Saved replies (templates), one click away while answering: insert, save the current text, delete. */
export function SavedReplies({ username, currentText, onInsert }: SavedRepliesProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const templates = useQuery({ ...templatesQuery(username), enabled: open });
  const refresh = () => queryClient.invalidateQueries({ queryKey: templatesQuery(username).queryKey });

  const save = useMutation({
    mutationFn: (body: { title: string; content: string }) =>
      api.call('createTemplate', { params: { username }, body }),
    onSuccess: () => {
      setTitle('');
      toast({ title: t.saved, variant: 'success' });
      return refresh();
    },
    onError: (error) => toast({ title: t.saveFailed, description: serverMessage(error), variant: 'error' }),
  });
  const remove = useMutation({
    mutationFn: (templateId: string) => api.call('deleteTemplate', { params: { username, id: templateId } }),
    onSuccess: () => {
      toast({ title: t.deleted, variant: 'success' });
      return refresh();
    },
    onError: () => toast({ title: t.deleteFailed, variant: 'error' }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    const content = currentText.trim();
    if (!content) {
      toast({ title: t.needText, variant: 'error' });
      return;
    }
    if (save.isPending) return;
    save.mutate({ title: title.trim() || truncate(content, 40), content });
  }

  return (
    <div>
      <Button
        variant="ghost"
        size="sm"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        <BookmarkIcon className="size-4" />
        {t.toggle}
      </Button>
      {open && (
        <section
          id={`${id}-panel`}
          aria-label={t.heading}
          className="mt-2 rounded-xl border border-slate-200 bg-slate-50 p-3"
        >
          {templates.data && templates.data.length > 0 ? (
            <ul className="max-h-48 space-y-1 overflow-y-auto">
              {templates.data.map((template) => (
                <li key={template.id} className="flex items-center gap-1">
                  <button
                    type="button"
                    onClick={() => onInsert(template.content)}
                    className="min-w-0 flex-1 rounded-lg px-2 py-1.5 text-left hover:bg-white"
                  >
                    <span className="sr-only">{t.insertPrefix} </span>
                    <span className="block truncate text-sm font-semibold text-slate-900">
                      {template.title}
                    </span>
                    <span className="block truncate text-xs text-slate-600">{template.content}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() => remove.mutate(template.id)}
                    aria-label={t.delete(template.title)}
                    className="rounded-md p-2 text-slate-600 hover:bg-red-50 hover:text-red-700"
                  >
                    <TrashIcon className="size-4" />
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{templates.isLoading ? TEXT.common.loading : t.empty}</p>
          )}
          <form onSubmit={submit} className="mt-3 border-t border-slate-200 pt-3">
            <label htmlFor={`${id}-title`} className="block text-xs font-semibold text-slate-900">
              {t.titleLabel}
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id={`${id}-title`}
                value={title}
                maxLength={100}
                placeholder={t.titlePlaceholder}
                onChange={(e) => setTitle(e.target.value)}
                className={`${textFieldClass} py-1.5 text-sm`}
              />
              <Button
                type="submit"
                size="sm"
                variant="secondary"
                className="h-auto shrink-0"
                disabled={save.isPending}
              >
                {t.save}
              </Button>
            </div>
            <p className="mt-1 text-xs text-slate-600">{t.saveHeading}</p>
          </form>
        </section>
      )}
    </div>
  );
}
