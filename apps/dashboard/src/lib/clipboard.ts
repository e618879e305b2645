import { toast } from '@fanpilot/ui';
import { TEXT } from '../texts.ts';

const t = TEXT.share;

/** Copies `text`, saying so by toast (or that the browser refused). */
export async function copyToClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: t.copied, description: text, variant: 'success' });
  } catch {
    toast({ title: t.copyFailed, description: text, variant: 'error' });
  }
}
