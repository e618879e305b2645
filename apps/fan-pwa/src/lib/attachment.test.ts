import { describe, expect, it } from 'vitest';
import { texts } from '../texts.ts';
import { attachmentProblem } from './attachment.ts';

describe('fan attachments', () => {
  it('takes photos and PDFs up to 10 MB', () => {
    expect(attachmentProblem({ name: 'me.jpg', type: 'image/jpeg', size: 2_000_000 })).toBeNull();
    expect(
      attachmentProblem({ name: 'plan.pdf', type: 'application/pdf', size: 10 * 1024 * 1024 }),
    ).toBeNull();
    expect(attachmentProblem({ name: 'plan.PDF', type: '', size: 100 })).toBeNull();
  });

  it('refuses other types and larger files with a readable reason', () => {
    expect(attachmentProblem({ name: 'a.zip', type: 'application/zip', size: 10 })).toBe(
      texts.attachmentWrongType,
    );
    expect(attachmentProblem({ name: 'big.png', type: 'image/png', size: 10 * 1024 * 1024 + 1 })).toBe(
      texts.attachmentTooLarge(10),
    );
  });
});
