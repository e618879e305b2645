import type { PublicCreator } from '../lib/api.ts';
import { texts } from '../texts.ts';

/**
 * Who the fan is talking to, at the top of the conversation (it scrolls away with it, so the
 * header stays one line): the chatbot's name and the creator's own description (issue 29).
 */
export function CreatorIntro({ creator }: { creator: PublicCreator }) {
  const description = creator.description?.trim();
  const chatbot = creator.chatbotName?.trim();
  if (!description && !chatbot) return null;
  return (
    <section aria-label={texts.aboutCreator(creator.name)} className="mx-auto mb-4 max-w-md text-center">
      {chatbot && (
        <p className="text-xs font-semibold text-brand-700">{texts.chatbotIntro(chatbot, creator.name)}</p>
      )}
      {description && <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{description}</p>}
    </section>
  );
}
