import { CREATOR_DESCRIPTION_MAX, type CurrentUser } from '@fanpilot/contracts';
import { Button, toast } from '@fanpilot/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { currentUserQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { UserIcon } from '../../icons.tsx';
import { Card } from '../Card.tsx';

const t = TEXT.profile;

/** The description from signup, editable (issue 29); fans read it under the creator's name. */
export function DescriptionCard({ user }: { user: CurrentUser }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState(user.description ?? '');
  const [saved, setSaved] = useState(user.description ?? '');
  const save = useMutation({
    mutationFn: (description: string) =>
      api.call('updateDescription', { params: { username: user.username }, body: { description } }),
    onSuccess: ({ description }) => {
      setText(description);
      setSaved(description);
      queryClient.setQueryData(currentUserQuery.queryKey, (old) => (old ? { ...old, description } : old));
      toast({ title: t.descriptionSaved, variant: 'success' });
    },
    onError: (error) =>
      toast({
        title: t.descriptionFailed,
        description: serverMessage(error) ?? t.descriptionFailedFallback,
        variant: 'error',
      }),
  });
  const unchanged = text.trim() === saved.trim();
  return (
    <Card title={t.descriptionHeading} Icon={UserIcon} className="xl:col-span-2">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(text);
        }}
      >
        <label htmlFor={id} className="block text-sm font-semibold text-slate-900">
          {t.descriptionLabel}
        </label>
        <textarea
          id={id}
          value={text}
          maxLength={CREATOR_DESCRIPTION_MAX}
          rows={3}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={`${id}-note`}
          className="mt-2 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        <p id={`${id}-note`} className="mt-1.5 text-sm text-slate-600">
          {t.descriptionNote(text.length, CREATOR_DESCRIPTION_MAX)}
        </p>
        <Button type="submit" size="sm" className="mt-3" disabled={unchanged || save.isPending}>
          {save.isPending ? t.descriptionSaving : t.descriptionSave}
        </Button>
      </form>
    </Card>
  );
}
