import {
  normalizeUsername,
  USERNAME_MAX_LENGTH,
  USERNAME_MESSAGES,
  usernameProblem,
} from '@fanpilot/contracts';
import { useQuery } from '@tanstack/react-query';
import { type Ref, useId } from 'react';
import { useDebouncedValue } from '../../hooks/useDebouncedValue.ts';
import { api } from '../../lib/api.ts';
import { pwaPath } from '../../lib/destinations.ts';
import { textFieldClass } from '../field-classes.ts';
import { SIGNUP_TEXT } from './texts.ts';

const t = SIGNUP_TEXT;

/** How long the name must stay the same before the api is asked whether it is free. */
const CHECK_AFTER_MS = 300;
/** The longest name the availability call takes (a longer one is refused before it is asked). */
const AVAILABILITY_PARAM_MAX = 200;

/** What the field knows of the name typed: checked in the browser first, then by the api. */
export type UsernameVerdict =
  | { state: 'invalid'; message: string; suggestion?: string | undefined }
  | { state: 'checking' }
  | { state: 'available'; username: string }
  | { state: 'unavailable'; message: string; suggestion?: string | undefined }
  | { state: 'unknown' };

/**
 * The verdict on `value` as the creator types: the rules of a username at once (contracts'
 * `usernameProblem`, the same the api applies), then whether it is free, asked of the api once the
 * name has settled for a moment.
 */
export function useUsernameVerdict(value: string): UsernameVerdict {
  const username = normalizeUsername(value);
  const problem = usernameProblem(username);
  const settled = useDebouncedValue(username, CHECK_AFTER_MS);
  // Asked for a broken name too: the api offers a valid one near it.
  const check = useQuery({
    queryKey: ['username-availability', settled],
    queryFn: () => api.call('usernameAvailability', { params: { username: settled } }),
    enabled: settled.length > 0 && settled.length <= AVAILABILITY_PARAM_MAX,
    staleTime: 10_000,
  });
  const answer = settled === username ? check.data : undefined;
  if (problem)
    return { state: 'invalid', message: USERNAME_MESSAGES[problem], suggestion: answer?.suggestion };
  if (settled !== username || check.isPending) return { state: 'checking' };
  if (check.error || !answer) return { state: 'unknown' };
  return answer.available
    ? { state: 'available', username: answer.username }
    : {
        state: 'unavailable',
        message: answer.message ?? USERNAME_MESSAGES.taken,
        suggestion: answer.suggestion,
      };
}

/** The username the creator chooses (their fan link), with its availability in words as they type. */
export function UsernameField({
  value,
  onChange,
  verdict,
  serverError,
  disabled,
  inputRef,
}: {
  value: string;
  onChange: (value: string) => void;
  verdict: UsernameVerdict;
  /** The signup's own refusal of the name (taken meanwhile), shown in place of the verdict. */
  serverError: string | null;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const statusId = `${id}-status`;
  const hintId = `${id}-hint`;
  const origin = window.location.origin;
  const refused =
    serverError ?? (verdict.state === 'invalid' || verdict.state === 'unavailable' ? verdict.message : null);
  const suggestion =
    !serverError && (verdict.state === 'unavailable' || verdict.state === 'invalid')
      ? verdict.suggestion
      : undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
        {t.usernameLabel}
      </label>
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {t.usernameHint}
      </p>
      <div className="mt-2 flex items-stretch">
        <span
          aria-hidden="true"
          className="flex max-w-[45%] shrink-0 items-center truncate rounded-l-lg border border-r-0 border-slate-300 bg-slate-50 px-3 text-sm text-slate-600"
          title={`${origin}/pwa/`}
        >
          {`${window.location.host}/pwa/`}
        </span>
        <input
          ref={inputRef}
          id={id}
          type="text"
          value={value}
          maxLength={USERNAME_MAX_LENGTH + 10}
          autoCapitalize="none"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          aria-required="true"
          aria-invalid={refused ? true : undefined}
          aria-describedby={`${hintId} ${statusId}`}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          className={`min-w-0 rounded-l-none ${textFieldClass}`}
          data-testid="username-input"
        />
      </div>
      <div id={statusId} aria-live="polite" className="mt-1.5 min-h-5 text-sm" data-testid="username-status">
        {refused ? (
          <p className="font-medium text-red-700">
            {refused}
            {suggestion && (
              <>
                {' '}
                <button
                  type="button"
                  className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
                  onClick={() => onChange(suggestion)}
                  disabled={disabled}
                >
                  {t.useSuggestion(suggestion)}
                </button>
              </>
            )}
          </p>
        ) : verdict.state === 'checking' ? (
          <p className="text-slate-600">{t.usernameChecking}</p>
        ) : verdict.state === 'available' ? (
          <p className="font-medium text-emerald-800">
            {t.usernameAvailable(`${origin}${pwaPath(verdict.username)}`)}
          </p>
        ) : verdict.state === 'unknown' ? (
          <p className="text-slate-600">{t.usernameUnchecked}</p>
        ) : null}
      </div>
    </div>
  );
}
