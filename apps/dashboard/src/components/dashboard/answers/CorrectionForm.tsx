import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { creatorPath } from '../../../lib/queries.ts';
import { textFieldClass } from '../../field-classes.ts';
import { ANSWERS_TEXT } from './texts.ts';

const t = ANSWERS_TEXT;

/**
 * The creator writes the right answer to a question the AI answered (docs/product.md#corrections):
 * it becomes a correction that wins for that question and its paraphrases; with `messageId` (an
 * answer a fan got) it can also be sent to that fan.
 */
export function CorrectionForm({
  username,
  question: initialQuestion,
  messageId,
  canSendToFan,
  onDone,
}: {
  username: string;
  question: string;
  messageId?: string | undefined;
  canSendToFan: boolean;
  onDone: () => void;
}) {
  const [question, setQuestion] = useState(initialQuestion);
  const [answer, setAnswer] = useState('');
  const [sendToFan, setSendToFan] = useState(canSendToFan);
  const ids = { question: useId(), answer: useId(), send: useId() };
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: () =>
      api.call('correctAnswer', {
        params: { username },
        body: {
          question,
          answer,
          ...(messageId ? { messageId } : {}),
          ...(canSendToFan && messageId ? { sendToFan } : {}),
        },
      }),
    onSuccess: (saved) => {
      toast({ title: t.correctionSaved(saved.sentTo), variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: creatorPath(username) });
      onDone();
    },
    onError: (error) =>
      toast({ title: t.correctionFailed, description: serverMessage(error), variant: 'error' }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (question.trim() && answer.trim() && !save.isPending) save.mutate();
  };
  return (
    <form
      onSubmit={submit}
      aria-label={t.correctLabel}
      data-testid="correction-form"
      className="mt-2 space-y-2 rounded-xl border border-brand-200 bg-brand-50 p-3 text-sm text-slate-900"
    >
      <div>
        <label htmlFor={ids.question} className="block text-xs font-semibold text-slate-700">
          {t.correctionQuestion}
        </label>
        <input
          id={ids.question}
          value={question}
          maxLength={1000}
          onChange={(e) => setQuestion(e.target.value)}
          className={textFieldClass}
        />
      </div>
      <div>
        <label htmlFor={ids.answer} className="block text-xs font-semibold text-slate-700">
          {t.correctionAnswer}
        </label>
        <textarea
          id={ids.answer}
          value={answer}
          rows={3}
          maxLength={20_000}
          onChange={(e) => setAnswer(e.target.value)}
          className={textFieldClass}
        />
        <p className="mt-1 text-xs text-slate-600">{t.correctionHint}</p>
      </div>
      {canSendToFan && messageId && (
        <label htmlFor={ids.send} className="flex items-center gap-2 text-xs text-slate-800">
          <input
            id={ids.send}
            type="checkbox"
            checked={sendToFan}
            onChange={(e) => setSendToFan(e.target.checked)}
          />
          {t.correctionSend}
        </label>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={!question.trim() || !answer.trim() || save.isPending}>
          {save.isPending ? t.correctionSaving : t.correctionSave}
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={onDone}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}
