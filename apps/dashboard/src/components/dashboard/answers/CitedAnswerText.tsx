import { isFileCitation, type MessageSource } from '@fanpilot/contracts';
import { LinkifiedText } from '@fanpilot/ui/LinkifiedText';
import { ANSWERS_TEXT } from './texts.ts';

const t = ANSWERS_TEXT;

const marker =
  'ml-0.5 align-super text-[11px] font-semibold underline-offset-2 hover:underline focus-visible:outline-2';

/**
 * An AI answer's text with its [n] markers as small links to its sources (never raw): a page or a
 * video opens at the passage, a file's toggles its passage (`onOpenFile`), and a source with nothing
 * to open (the creator's own answer) is a superscript number with its title.
 */
export function CitedAnswerText({
  text,
  sources,
  onOpenFile,
  tone = 'light',
}: {
  text: string;
  sources: MessageSource[] | undefined;
  onOpenFile?: ((n: number) => void) | undefined;
  /** 'dark': on a dark bubble (white markers). */
  tone?: 'light' | 'dark';
}) {
  const color = tone === 'dark' ? 'text-white' : 'text-brand-700';
  return (
    <LinkifiedText
      text={text}
      renderCitation={(n) => {
        const c = sources?.[n - 1];
        if (!c) return null;
        const label = t.sourceMarker(n, c.title);
        if (c.url && !isFileCitation(c)) {
          return (
            <a
              href={c.url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={label}
              title={c.title}
              data-testid="citation-marker"
              className={`${marker} ${color}`}
            >
              {n}
            </a>
          );
        }
        if (isFileCitation(c) && onOpenFile) {
          return (
            <button
              type="button"
              aria-label={label}
              title={c.title}
              data-testid="citation-marker"
              onClick={() => onOpenFile(n - 1)}
              className={`${marker} ${color}`}
            >
              {n}
            </button>
          );
        }
        return (
          <sup title={label} data-testid="citation-marker" className={`${marker} ${color}`}>
            {n}
          </sup>
        );
      }}
    />
  );
}
