import type { Answerer } from '@fanpilot/contracts';
import { TEXT } from '../../../texts.ts';

const t = TEXT.answerer;

/**
 * Which model really answers fans: the chatbot's, when its provider's key is set; otherwise the
 * embedded answerer, and what to set to change that.
 */
export function AnswererNote({ answerer }: { answerer: Answerer | undefined }) {
  if (!answerer) return null;
  if (answerer.configured) {
    return (
      <p data-testid="answerer" className="text-sm text-slate-700">
        {t.answeredBy(answerer.model)}
      </p>
    );
  }
  return (
    <div
      data-testid="answerer"
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="font-semibold">{t.noModel}</p>
      <p className="mt-0.5">{t.noModelSet(answerer.keyVariable, answerer.model)}</p>
    </div>
  );
}
