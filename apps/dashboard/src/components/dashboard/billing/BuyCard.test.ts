import type { Billing } from '@fanpilot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TEXT } from '../../../texts.ts';
import { BuyCard } from './BillingSection.tsx';

const billing = (mode: { purchasesEnabled: boolean; testMode: boolean }): Billing => ({
  balance: 1000,
  freeGrant: 1000,
  purchased: 0,
  spent: 0,
  state: 'ok',
  lowThreshold: 100,
  aiAnswersToday: 0,
  dailyAiBudget: 300,
  aiBudgetReached: false,
  daily: [],
  purchases: [],
  packs: [
    { id: 'credits-10k', credits: 10_000, amountCents: 100, currency: 'usd' },
    { id: 'credits-50k', credits: 50_000, amountCents: 500, currency: 'usd' },
  ],
  ...mode,
});

function render(b: Billing) {
  const html = renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(BuyCard, { billing: b, username: 'ada' }),
    ),
  );
  const buttons = [...html.matchAll(/<button[^>]*>/g)].map((m) => m[0]);
  return { html, buttons };
}

describe('the Billing section when buying is switched off', () => {
  it('says so in a sentence and disables every buy button', () => {
    const { html, buttons } = render(billing({ purchasesEnabled: false, testMode: false }));
    expect(html).toContain(TEXT.billing.purchasesOff);
    expect(TEXT.billing.purchasesOff).toMatch(/^Buying credits is switched off on this server/);
    expect(html).toMatch(/role="status"[^>]*>Buying credits is switched off/);
    expect(buttons).toHaveLength(2);
    for (const button of buttons) {
      expect(button).toMatch(/\sdisabled=""/);
      expect(button).toContain('aria-describedby="billing-purchases-off"');
    }
    expect(html).not.toContain(TEXT.billing.testMode);
  });

  it('offers the packs when buying works (the test checkout says it is one)', () => {
    for (const testMode of [true, false]) {
      const { html, buttons } = render(billing({ purchasesEnabled: true, testMode }));
      expect(html).not.toContain(TEXT.billing.purchasesOff);
      expect(html.includes(TEXT.billing.testMode)).toBe(testMode);
      expect(buttons).toHaveLength(2);
      for (const button of buttons) expect(button).not.toMatch(/\sdisabled=""/);
    }
  });
});
