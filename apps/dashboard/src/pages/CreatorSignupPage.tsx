import {
  type CreatorSignupRequest,
  normalizeUsername,
  PROFILE_IMAGE_MAX_BYTES_SIGNUP,
  REDIRECT_AFTER_SIGNUP_MS,
  USERNAME_MESSAGES,
} from '@fanpilot/contracts';
import { Button, buttonClasses, dismissToast, toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLoaderData, useNavigate } from 'react-router';
import { DocumentTitle } from '../components/DocumentTitle.tsx';
import { textFieldClass } from '../components/field-classes.ts';
import { Logo } from '../components/Logo.tsx';
import { ProfileImageField, type UploadState } from '../components/signup/ProfileImageField.tsx';
import { SIGNUP_TEXT, UPLOAD_TEXT } from '../components/signup/texts.ts';
import { UsernameField, useUsernameVerdict } from '../components/signup/UsernameField.tsx';
import { ApiError, api, serverMessage } from '../lib/api.ts';
import { dashboardPath } from '../lib/destinations.ts';
import { chatbotQuery, currentUserQuery } from '../lib/queries.ts';
import { chosenImageProblem, hasUploadsSegment, uploadFile } from '../lib/upload.ts';
import type { creatorSignupLoader } from '../routes/loaders.ts';
import { TEXT } from '../texts.ts';

const t = SIGNUP_TEXT;

/** The signup's refusal of the chosen username (taken meanwhile, or a rule broken), in words. */
function usernameRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError) || !error.body) return null;
  const { error: code, message } = error.body;
  switch (code) {
    case 'username_taken':
      return message;
    case 'validation_error':
      return (Object.values(USERNAME_MESSAGES) as string[]).includes(message) ? message : null;
    default:
      return null;
  }
}

/**
 * `/creator-signup`: profile image, username (the fan link, checked as the creator types), chatbot
 * name and an optional description (docs/product.md#onboarding).
 */
export function CreatorSignupPage() {
  const user = useLoaderData<typeof creatorSignupLoader>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const nameId = useId();
  const descriptionId = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  const usernameInput = useRef<HTMLInputElement>(null);
  // The name assigned at first sign-in, until the creator chooses another.
  const [username, setUsername] = useState(user.username);
  const [usernameError, setUsernameError] = useState<string | null>(null);
  const verdict = useUsernameVerdict(username);

  const [file, setFile] = useState<File | null>(null);
  const [uploadState, setUploadState] = useState<UploadState>('idle');
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [chatbotName, setChatbotName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [finished, setFinished] = useState(false);
  const latestUpload = useRef(0);
  const redirectTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const signup = useMutation({
    mutationFn: (body: CreatorSignupRequest) => api.call('creatorSignup', { body }),
    onSuccess: ({ creator, chatbot }) => {
      setFinished(true);
      queryClient.setQueryData(currentUserQuery.queryKey, { ...user, ...creator });
      queryClient.setQueryData(chatbotQuery(creator.username).queryKey, chatbot ?? null);
      const welcome = toast(
        chatbot
          ? { title: t.welcomeTitle, description: t.welcomeDescription, variant: 'success' }
          : { title: t.accountCreatedTitle, description: t.accountCreatedDescription, variant: 'success' },
      );
      // The welcome says where it is taking the creator; it goes once they are there (issue 29).
      redirectTimer.current = window.setTimeout(() => {
        dismissToast(welcome);
        navigate(dashboardPath(creator.username), { replace: true });
      }, REDIRECT_AFTER_SIGNUP_MS);
    },
    onError: (error) => {
      const refusal = usernameRefusal(error);
      if (refusal) {
        // Said next to the field, where the creator fixes it.
        setUsernameError(refusal);
        usernameInput.current?.focus();
        return;
      }
      toast({
        title: t.failedTitle,
        description: serverMessage(error) ?? t.failedFallback,
        variant: 'error',
      });
    },
  });

  /**
   * Checks the image (its type, size and content) in the browser, then uploads it in the background
   * while the creator fills in the rest. A file that is no image is refused before any upload: it
   * is never previewed nor reported as uploaded.
   */
  async function chooseImage(chosen: File): Promise<boolean> {
    const attempt = ++latestUpload.current;
    setFile(null);
    setImageUrl(null);
    setUploadState('idle');
    setImageError(null);
    const problem = await chosenImageProblem(chosen, PROFILE_IMAGE_MAX_BYTES_SIGNUP);
    // A newer choice came while this one was read: that one decides.
    if (attempt !== latestUpload.current) return true;
    if (problem) {
      setImageError(problem === 'too-large' ? t.errors.imageTooLarge : t.errors.notAnImage);
      return false;
    }
    void upload(chosen, attempt);
    return true;
  }

  async function upload(chosen: File, attempt: number) {
    setFile(chosen);
    setImageError(null);
    setImageUrl(null);
    setUploadState('uploading');
    try {
      const url = await uploadFile(chosen);
      if (attempt !== latestUpload.current) return;
      setImageUrl(url);
      setUploadState('uploaded');
    } catch {
      if (attempt !== latestUpload.current) return;
      setUploadState('failed');
      toast({ title: UPLOAD_TEXT.failedTitle, description: UPLOAD_TEXT.failedDescription, variant: 'error' });
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (signup.isPending || finished || uploadState === 'uploading') return;
    const name = chatbotName.trim();
    const missingImage = !imageUrl;
    setImageError(missingImage ? t.errors.imageRequired : null);
    setNameError(name ? null : t.errors.nameRequired);
    const usernameRefused = verdict.state === 'invalid' || verdict.state === 'unavailable';
    if (usernameRefused || usernameError) usernameInput.current?.focus();
    else if (!name) nameInput.current?.focus();
    if (missingImage || !name || usernameRefused || usernameError) return;
    if (!hasUploadsSegment(imageUrl)) {
      toast({ title: UPLOAD_TEXT.invalidUrl, variant: 'error' });
      return;
    }
    signup.mutate({
      chatbotName: name,
      description: description.trim(),
      profileImageUrl: imageUrl,
      username: normalizeUsername(username),
    });
  }

  const busy = signup.isPending || finished;
  const submitLabel = uploadState === 'uploading' ? t.uploading : busy ? t.submitting : t.submit;

  return (
    <div className="min-h-dvh bg-gradient-to-b from-brand-50 to-slate-50">
      <DocumentTitle text={`${t.heading} · ${TEXT.productName}`} />
      <header className="mx-auto flex h-16 max-w-2xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <a href="/auth/logout" className={buttonClasses('ghost', 'sm')}>
          {TEXT.shell.logout}
        </a>
      </header>
      <main id="main" className="mx-auto max-w-2xl px-4 pt-4 pb-16 sm:px-6">
        <div className="rounded-3xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{t.heading}</h1>
          <p className="mt-2 text-slate-600">{t.lead}</p>
          <form noValidate onSubmit={submit} className="mt-8 space-y-7">
            <ProfileImageField
              file={file}
              uploadState={uploadState}
              error={imageError}
              disabled={busy}
              onChoose={chooseImage}
              onPreviewFailed={() => {
                // The browser cannot draw it: not an image we can use, whatever was uploaded.
                latestUpload.current++;
                setFile(null);
                setImageUrl(null);
                setUploadState('idle');
                setImageError(t.errors.notAnImage);
              }}
            />
            <div>
              <label htmlFor={nameId} className="block text-sm font-semibold text-slate-900">
                {t.nameLabel}
              </label>
              <input
                ref={nameInput}
                id={nameId}
                type="text"
                value={chatbotName}
                maxLength={100}
                aria-required="true"
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? `${nameId}-error` : undefined}
                placeholder={t.namePlaceholder}
                disabled={busy}
                onChange={(event) => {
                  setChatbotName(event.target.value);
                  if (nameError && event.target.value.trim()) setNameError(null);
                }}
                className={`mt-2 ${textFieldClass}`}
              />
              {nameError && (
                <p id={`${nameId}-error`} className="mt-1.5 text-sm font-medium text-red-700">
                  {nameError}
                </p>
              )}
            </div>
            <UsernameField
              value={username}
              inputRef={usernameInput}
              verdict={verdict}
              serverError={usernameError}
              disabled={busy}
              onChange={(next) => {
                setUsername(next);
                setUsernameError(null);
              }}
            />
            <div>
              <label htmlFor={descriptionId} className="block text-sm font-semibold text-slate-900">
                {t.descriptionLabel} <span className="font-normal text-slate-600">{t.optional}</span>
              </label>
              <textarea
                id={descriptionId}
                value={description}
                rows={4}
                maxLength={1000}
                placeholder={t.descriptionPlaceholder}
                disabled={busy}
                onChange={(event) => setDescription(event.target.value)}
                className={`mt-2 resize-y ${textFieldClass}`}
              />
            </div>
            <Button type="submit" size="lg" className="w-full" disabled={busy || uploadState === 'uploading'}>
              {submitLabel}
            </Button>
          </form>
        </div>
      </main>
    </div>
  );
}
