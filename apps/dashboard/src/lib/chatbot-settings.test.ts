import { describe, expect, it } from 'vitest';
import { settingsBody } from './chatbot-settings.ts';

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
});
