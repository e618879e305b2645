import { describe, expect, it } from 'vitest';
import { budgetNumber, settingsBody } from './chatbot-settings.ts';

describe('settingsBody', () => {
  it('sends the temperature as a string in steps of 0.1 and one initial message per non-blank line', () => {
    expect(
      settingsBody({
        name: '  Coach ',
        instructions: 'Be kind.',
        model: 'gpt-4o',
        temp: 0.30000000000000004,
        initialMessages: 'Hi there!\n\n  Ask me anything.  \n',
      }),
    ).toEqual({
      name: 'Coach',
      instructions: 'Be kind.',
      model: 'gpt-4o',
      temp: '0.3',
      initialMessages: ['Hi there!', 'Ask me anything.'],
    });
    expect(
      settingsBody({ name: 'x', instructions: '', model: 'gpt-4o-mini', temp: 1, initialMessages: '' }).temp,
    ).toBe('1.0');
  });

  it('sends the daily AI budget as a number when the form has one, and leaves it out otherwise', () => {
    const form = { name: 'x', instructions: '', model: 'gpt-4o' as const, temp: 0.5, initialMessages: '' };
    expect(settingsBody(form)).not.toHaveProperty('dailyAiBudget');
    expect(settingsBody({ ...form, dailyAiBudget: ' 1,200 ' }).dailyAiBudget).toBe(1200);
    expect(budgetNumber('40')).toBe(40);
    for (const typed of ['', '2.5', '-3', 'ten', '1e3']) expect(budgetNumber(typed)).toBeNaN();
  });
});
