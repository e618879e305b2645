import type { MODEL_CHOICES } from '@fanpilot/contracts';
/** The PUT …/settings body: temperature as a string (docs/product.md#chatbot-settings-modal), initial messages one per line. */
export function settingsBody(form: {
  name: string;
  instructions: string;
  model: (typeof MODEL_CHOICES)[number];
  temp: number;
  initialMessages: string;
  /** The daily AI answer budget as typed; sent as a number when given. */
  dailyAiBudget?: string;
}) {
  return {
    name: form.name.trim(),
    instructions: form.instructions,
    model: form.model,
    temp: (Math.round(form.temp * 10) / 10).toFixed(1),
    initialMessages: form.initialMessages
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    ...(form.dailyAiBudget !== undefined ? { dailyAiBudget: budgetNumber(form.dailyAiBudget) } : {}),
  };
}

/** A typed budget as the number the api takes (NaN for anything but digits, which the api refuses). */
export function budgetNumber(typed: string): number {
  const text = typed.trim().replace(/[,\s]/g, '');
  return /^\d+$/.test(text) ? Number(text) : Number.NaN;
}
