import { Button, toast } from '@fanpilot/ui';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import {
  createKnowledgeUploader,
  KNOWLEDGE_FILE_ACCEPT,
  type KnowledgeUploader,
  registerKnowledgeUpload,
  uploadErrorMessage,
} from '../../../lib/knowledge-upload.ts';
import { TEXT } from '../../../texts.ts';
import { fileInputClass } from '../../field-classes.ts';
import { FileIcon } from '../../icons.tsx';

interface KnowledgeFileFormProps {
  chatbotId: string;
  /** Called once the api has the file; processing then goes on in the background. */
  onUploaded: () => void;
}

const t = TEXT.addKnowledge;

/**
 * Picks one knowledge file and uploads it with Uppy straight to storage (restrictions, progress,
 * retries of passing failures), then registers it as a knowledge source. A refusal shows 'Upload
 * failed' with the reason ('Authorization required', 'Request has expired', a network notice or the
 * server's message); success shows 'Upload started'.
 */
export function KnowledgeFileForm({ chatbotId, onUploaded }: KnowledgeFileFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [fansMayDownload, setFansMayDownload] = useState(false);
  const lastError = useRef<string | undefined>(undefined);
  const uppy = useKnowledgeUploader(chatbotId, (error) => {
    lastError.current = uploadErrorMessage(error);
  });
  const percentage = useUploadPercentage(uppy);

  /** Puts the chosen file into Uppy, which checks it against the restrictions. */
  function stage(chosen: File): boolean {
    if (!uppy) return false;
    uppy.clear();
    try {
      uppy.addFile({ name: chosen.name, type: chosen.type, data: chosen, source: 'Local' });
      setProblem(null);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : t.uploadRetryHint;
      setProblem(message);
      toast({ title: t.uploadFailed, description: message, variant: 'error' });
      return false;
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file || uploading || !uppy) return;
    // Each attempt starts from the chosen file, so a failed upload can simply be sent again.
    if (!stage(file)) return;
    setUploading(true);
    lastError.current = undefined;
    try {
      const result = await uppy.upload();
      const done = result?.successful?.[0];
      const key = done?.response?.body?.key;
      if (!done || !key) {
        toast({
          title: t.uploadFailed,
          description: lastError.current ?? t.uploadRetryHint,
          variant: 'error',
        });
        return;
      }
      // The file is in storage; the api now checks it and makes it a knowledge source.
      await registerKnowledgeUpload(chatbotId, key, file.name, fansMayDownload);
      toast({
        title: t.uploadStarted,
        description: `${file.name}. ${t.processingNote}`,
        variant: 'success',
      });
      uppy.clear();
      setFile(null);
      setFansMayDownload(false);
      if (input.current) input.current.value = '';
      onUploaded();
    } catch (error) {
      toast({
        title: t.uploadFailed,
        description: uploadErrorMessage(error) ?? lastError.current ?? t.uploadRetryHint,
        variant: 'error',
      });
    } finally {
      setUploading(false);
    }
  }

  return (
    <form onSubmit={submit} className="rounded-xl border border-slate-200 p-4">
      <label htmlFor={id} className="flex items-center gap-2 px-1 text-sm font-semibold text-slate-900">
        <FileIcon className="size-4 text-brand-600" />
        {t.fileLabel}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={KNOWLEDGE_FILE_ACCEPT}
        disabled={uploading}
        aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
        onChange={(e) => {
          const chosen = e.target.files?.[0] ?? null;
          if (chosen && !stage(chosen)) {
            e.target.value = '';
            setFile(null);
            return;
          }
          setFile(chosen);
        }}
        className={`mt-2 ${fileInputClass}`}
      />
      <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-600">
        {t.fileHint}
      </p>
      {problem && (
        <p id={`${id}-problem`} className="mt-1 text-xs font-medium text-red-700">
          {problem}
        </p>
      )}
      <p id={`${id}-fans`} className="mt-3 text-xs text-slate-700">
        {t.fansSee}
      </p>
      <label className="mt-2 flex items-center gap-2 text-sm text-slate-900">
        <input
          type="checkbox"
          checked={fansMayDownload}
          disabled={uploading}
          aria-describedby={`${id}-fans`}
          onChange={(e) => setFansMayDownload(e.target.checked)}
          className="size-4 accent-brand-600"
        />
        {t.fansMayDownload}
      </label>
      {uploading && (
        <div
          role="progressbar"
          aria-label={t.uploadProgress}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percentage}
          className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-100"
        >
          <div className="h-full bg-brand-600" style={{ width: `${percentage}%` }} />
        </div>
      )}
      <Button type="submit" disabled={!file || uploading} className="mt-3">
        {uploading ? t.uploading : t.upload}
      </Button>
    </form>
  );
}

/**
 * One Uppy per mounted form, made in an effect so that it is destroyed (its listeners removed)
 * whenever the form goes away, also under StrictMode's mount-unmount-mount.
 */
function useKnowledgeUploader(chatbotId: string, onUploadError: (error: unknown) => void) {
  const [uppy, setUppy] = useState<KnowledgeUploader | null>(null);
  const onError = useRef(onUploadError);
  onError.current = onUploadError;
  useEffect(() => {
    const instance = createKnowledgeUploader(chatbotId);
    instance.on('upload-error', (_file, error) => onError.current(error));
    setUppy(instance);
    return () => {
      instance.destroy();
      setUppy(null);
    };
  }, [chatbotId]);
  return uppy;
}

const noUploader = () => () => {};

/** The staged file's upload percentage, following Uppy's state. */
function useUploadPercentage(uppy: KnowledgeUploader | null): number {
  const subscribe = useCallback(
    (listener: () => void) => (uppy ? uppy.store.subscribe(listener) : noUploader()),
    [uppy],
  );
  return useSyncExternalStore(subscribe, () =>
    uppy ? (Object.values(uppy.getState().files)[0]?.progress.percentage ?? 0) : 0,
  );
}
