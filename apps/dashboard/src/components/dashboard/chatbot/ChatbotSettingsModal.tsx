import {
  type Chatbot,
  DAILY_AI_BUDGET_MAX,
  DAILY_AI_BUDGET_MESSAGE,
  DAILY_AI_BUDGET_MIN,
  MODEL_CHOICES,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
  TEMPERATURE_STEP,
} from '@fanpilot/contracts';
import { Button, Modal, toast } from '@fanpilot/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, serverMessage } from '../../../lib/api.ts';
import { budgetNumber, settingsBody } from '../../../lib/chatbot-settings.ts';
import { answererQuery, chatbotQuery, usageQuery } from '../../../lib/queries.ts';
import { TEXT } from '../../../texts.ts';
import { textFieldClass } from '../../field-classes.ts';
import { AnswererNote } from '../answers/AnswererNote.tsx';
import { CHATBOT_SETTINGS_TEXT, CREATE_CHATBOT_TEXT } from './texts.ts';

interface ChatbotSettingsModalProps {
  username: string;
  chatbot: Chatbot;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const t = CHATBOT_SETTINGS_TEXT;

/** Chatbot Settings: name, instructions, model, temperature slider, initial messages and the daily AI budget. */
export function ChatbotSettingsModal({ username, chatbot, open, onOpenChange }: ChatbotSettingsModalProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t.title} closeLabel={TEXT.common.close}>
      {/* Mounted while open only, so each opening starts from the saved settings. */}
      {open && <SettingsForm username={username} chatbot={chatbot} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function SettingsForm({
  username,
  chatbot,
  onDone,
}: {
  username: string;
  chatbot: Chatbot;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState(chatbot.name);
  const [instructions, setInstructions] = useState(chatbot.instructions);
  const [model, setModel] = useState(chatbot.model as (typeof MODEL_CHOICES)[number]);
  const [temp, setTemp] = useState(chatbot.temp);
  const [initialMessages, setInitialMessages] = useState(chatbot.initialMessages.join('\n'));
  const [dailyAiBudget, setDailyAiBudget] = useState(String(chatbot.dailyAiBudget));
  const answerer = useQuery(answererQuery(username));

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof settingsBody>) =>
      api.call('updateChatbotSettings', { params: { id: chatbot.id }, body }),
    onSuccess: (updated) => {
      queryClient.setQueryData(chatbotQuery(username).queryKey, updated);
      // A new budget may lift (or bring) the "Daily AI budget reached" notice.
      void queryClient.invalidateQueries({ queryKey: usageQuery(username).queryKey });
      toast({ title: t.updated, variant: 'success' });
      onDone();
    },
    onError: (error) =>
      toast({ title: t.failed, description: serverMessage(error) ?? t.fallback, variant: 'error' }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    if (!name.trim()) {
      toast({ title: CREATE_CHATBOT_TEXT.nameRequired, variant: 'error' });
      return;
    }
    // Checked by hand, not with the contracts' zod schema: zod probes `new Function` when it loads,
    // which the page's Content-Security-Policy (no eval) reports as a violation.
    const budget = budgetNumber(dailyAiBudget);
    if (!Number.isInteger(budget) || budget < DAILY_AI_BUDGET_MIN || budget > DAILY_AI_BUDGET_MAX) {
      toast({ title: DAILY_AI_BUDGET_MESSAGE, variant: 'error' });
      return;
    }
    save.mutate(settingsBody({ name, instructions, model, temp, initialMessages, dailyAiBudget }));
  }

  const label = 'block text-sm font-semibold text-slate-900';
  const hint = 'mt-1 text-xs text-slate-600';
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div>
        <label htmlFor={`${id}-name`} className={label}>
          {t.name}
        </label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={100}
          onChange={(e) => setName(e.target.value)}
          className={`mt-2 ${textFieldClass}`}
        />
      </div>
      <div>
        <label htmlFor={`${id}-instructions`} className={label}>
          {t.instructions}
        </label>
        <textarea
          id={`${id}-instructions`}
          rows={5}
          value={instructions}
          maxLength={8000}
          aria-describedby={`${id}-instructions-hint`}
          onChange={(e) => setInstructions(e.target.value)}
          className={`mt-2 resize-y ${textFieldClass}`}
        />
        <p id={`${id}-instructions-hint`} className={hint}>
          {t.instructionsHint}
        </p>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-model`} className={label}>
            {t.model}
          </label>
          <select
            id={`${id}-model`}
            value={model}
            onChange={(e) => setModel(e.target.value as (typeof MODEL_CHOICES)[number])}
            className={`mt-2 bg-white ${textFieldClass}`}
          >
            {MODEL_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice}
              </option>
            ))}
          </select>
          {/* Which model really answers now (the saved setting, and whether its key is set). */}
          <div className="mt-2">
            <AnswererNote answerer={answerer.data} />
          </div>
        </div>
        <div>
          <div className="flex items-center justify-between">
            <label htmlFor={`${id}-temp`} className={label}>
              {t.temperature}
            </label>
            <output htmlFor={`${id}-temp`} className="text-sm font-semibold text-slate-900">
              {temp.toFixed(1)}
            </output>
          </div>
          <input
            id={`${id}-temp`}
            type="range"
            min={TEMPERATURE_MIN}
            max={TEMPERATURE_MAX}
            step={TEMPERATURE_STEP}
            value={temp}
            aria-describedby={`${id}-temp-hint`}
            onChange={(e) => setTemp(Math.round(Number(e.target.value) * 10) / 10)}
            className="mt-3 w-full accent-brand-600"
          />
          <p id={`${id}-temp-hint`} className={hint}>
            {t.temperatureHint}
          </p>
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-initial`} className={label}>
          {t.initialMessages}
        </label>
        <textarea
          id={`${id}-initial`}
          rows={3}
          value={initialMessages}
          aria-describedby={`${id}-initial-hint`}
          onChange={(e) => setInitialMessages(e.target.value)}
          className={`mt-2 resize-y ${textFieldClass}`}
        />
        <p id={`${id}-initial-hint`} className={hint}>
          {t.initialMessagesHint}
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-budget`} className={label}>
          {t.dailyAiBudget}
        </label>
        <input
          id={`${id}-budget`}
          type="number"
          inputMode="numeric"
          min={DAILY_AI_BUDGET_MIN}
          max={DAILY_AI_BUDGET_MAX}
          step={1}
          value={dailyAiBudget}
          aria-describedby={`${id}-budget-hint`}
          onChange={(e) => setDailyAiBudget(e.target.value)}
          className={`mt-2 sm:w-48 ${textFieldClass}`}
        />
        <p id={`${id}-budget-hint`} className={hint}>
          {t.dailyAiBudgetHint}
        </p>
      </div>
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t.saving : t.save}
        </Button>
      </div>
    </form>
  );
}
