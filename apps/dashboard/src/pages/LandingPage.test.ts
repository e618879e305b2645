import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LandingPage } from './LandingPage.tsx';

/** The landing page as HTML (no DOM needed), and what a person reads in it. */
const html = renderToStaticMarkup(createElement(LandingPage));

const decode = (text: string) =>
  text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Text content of a piece of markup: tags dropped, entities decoded, whitespace collapsed. */
const textOf = (markup: string) =>
  decode(markup.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

const buttonNames = [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map((m) => textOf(m[1] ?? ''));

describe('landing page', () => {
  it.each(['Start Building', 'Start Free Trial'])(
    "has exactly one button whose name contains the call to action '%s'",
    (label) => {
      const matching = buttonNames.filter((name) => name.toLowerCase().includes(label.toLowerCase()));
      expect(matching).toEqual([label]);
    },
  );

  it('labels its other sign-in buttons differently', () => {
    expect(buttonNames).toEqual(expect.arrayContaining(['Get started', 'Try it free']));
  });

  it("reads '$1 per 10,000 credits' as one text in the pricing card", () => {
    const price = html.match(/<p\b[^>]*>(?:(?!<\/p>)[\s\S])*\$1(?:(?!<\/p>)[\s\S])*<\/p>/)?.[0] ?? '';
    expect(textOf(price)).toBe('$1 per 10,000 credits');
  });

  it.each([
    'Set-up takes about 10 minutes',
    'Subscriber prices of $30 to $99 a month',
    'Conversion of 15 to 25 percent',
    'One credit per fan-to-AI interaction',
    'The first 1,000 credits are free',
    'No monthly lock-ins',
  ])("says the landing claim '%s' once on the page", (claim) => {
    // Once in the page's text (any case), so a lookup by the specified words finds one element.
    expect(textOf(html).toLowerCase().split(claim.toLowerCase())).toHaveLength(2);
  });
});
