import type { LoginErrorCode } from '@fanpilot/contracts';
import { TEXT } from '../texts.ts';

// TEXT.loginError.messages has exactly one entry per LoginErrorCode (checked by `satisfies` there).
const isKnownCode = (code: string): code is LoginErrorCode => Object.hasOwn(TEXT.loginError.messages, code);

/** The Korean message for a sign-in redirect code (docs/product.md#contractual-texts); unknown codes get the generic one. */
export function loginErrorMessage(code: string): string {
  return isKnownCode(code) ? TEXT.loginError.messages[code] : TEXT.loginError.generic;
}

/** The toast for `/?error=CODE&details=...`, or null when the address carries no error. */
export function loginErrorToast(search: URLSearchParams): { title: string; description: string } | null {
  const code = search.get('error');
  if (!code) return null;
  const details = search.get('details')?.trim();
  const message = loginErrorMessage(code);
  return { title: TEXT.loginError.title, description: details ? `${message} (${details})` : message };
}
