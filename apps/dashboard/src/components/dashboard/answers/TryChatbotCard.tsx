import type { PlaygroundResponse } from '@fanpilot/contracts';
import { Button } from '@fanpilot/ui';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { textFieldClass } from '../../field-classes.ts';
import { BotIcon } from '../../icons.tsx';
import { Card } from '../Card.tsx';
import { CONVERSATION_TEXT } from '../chats/texts.ts';
import { CitedAnswerText } from './CitedAnswerText.tsx';
import { CorrectionForm } from './CorrectionForm.tsx';
import { ANSWERS_TEXT } from './texts.ts';

const t = ANSWERS_TEXT;
const p = t.playground;

/**
 * "Try your chatbot" (docs/product.md#try-your-chatbot): the creator asks as a fan would and sees
 * the answer, its sources and the passages retrieved; free of credits and outside the inbox. Any
 * answer can be corrected on the spot.
 */
export function TryChatbotCard({ username }: { username: string }) {
  const [question, setQuestion] = useState('');
  const [correcting, setCorrecting] = useState(false);
  const [passagesOpen, setPassagesOpen] = useState(false);
  const inputId = useId();
  const ask = useMutation({
    mutationFn: (q: string) => api.call('tryChatbot', { params: { username }, body: { question: q } }),
    onMutate: () => setCorrecting(false),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (question.trim() && !ask.isPending) ask.mutate(question.trim());
  };
  const result: PlaygroundResponse | undefined = ask.data;
  return (
    <Card title={p.heading} Icon={BotIcon} className="xl:col-span-2">
      <p className="-mt-2 mb-3 text-sm text-slate-600">{p.lead}</p>
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            {p.label}
          </label>
          <input
            id={inputId}
            data-testid="playground-question"
            value={question}
            maxLength={2000}
            placeholder={p.placeholder}
            onChange={(e) => setQuestion(e.target.value)}
            className={textFieldClass}
          />
        </div>
        <Button type="submit" disabled={!question.trim() || ask.isPending} aria-busy={ask.isPending}>
          {ask.isPending ? p.asking : p.ask}
        </Button>
      </form>
      {ask.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {serverMessage(ask.error) ?? p.failed}
        </p>
      )}
      {result && (
        <div className="mt-4 space-y-3" data-testid="playground-result">
          <div className="rounded-xl border border-slate-200 bg-slate-50 p-3">
            <p className="text-xs font-semibold text-slate-600">{p.answerLabel}</p>
            <p
              data-testid="playground-answer"
              className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-900"
            >
              <CitedAnswerText
                text={result.answer}
                sources={result.sources}
                // A file's passage is among the passages found: the marker opens them.
                onOpenFile={() => setPassagesOpen(true)}
              />
            </p>
            {result.sources.length > 0 && (
              <ul aria-label={CONVERSATION_TEXT.sources} className="mt-2 flex flex-wrap gap-1.5">
                {result.sources.map((s, i) => (
                  <li
                    key={`${i}-${s.title}`}
                    data-testid="playground-source"
                    className="max-w-full truncate rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800"
                  >
                    {i + 1}. {s.title}
                  </li>
                ))}
              </ul>
            )}
            <p className="mt-2 text-xs text-slate-600">
              {p.byModel(result.model)}
              {result.correction && ` ${p.fromCorrection}`}
              {result.handedOver && ` ${p.handedOver}`}
            </p>
            {!correcting ? (
              <Button size="sm" variant="secondary" className="mt-2" onClick={() => setCorrecting(true)}>
                {t.correctLabel}
              </Button>
            ) : (
              <CorrectionForm
                username={username}
                question={result.question}
                canSendToFan={false}
                onDone={() => setCorrecting(false)}
              />
            )}
          </div>
          <details
            open={passagesOpen}
            onToggle={(e) => setPassagesOpen(e.currentTarget.open)}
            className="rounded-xl border border-slate-200 p-3"
            data-testid="playground-passages"
          >
            <summary className="cursor-pointer text-sm font-medium text-slate-800">
              {p.passages(result.passages.length)}
            </summary>
            {result.passages.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">{p.noPassages}</p>
            ) : (
              <ol className="mt-2 space-y-2">
                {result.passages.map((passage, i) => (
                  <li key={`${i}-${passage.title}`} className="text-xs text-slate-700">
                    <p className="font-semibold text-slate-900">
                      {i + 1}. {passage.title}
                    </p>
                    <p className="mt-0.5 line-clamp-4 whitespace-pre-wrap">{passage.content}</p>
                  </li>
                ))}
              </ol>
            )}
          </details>
        </div>
      )}
    </Card>
  );
}
