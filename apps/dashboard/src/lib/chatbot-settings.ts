/** The PUT …/settings body: temperature as a string (SPEC section 5), initial messages one per line. */
export function settingsBody(form: {
  name: string;
  instructions: string;
  model: string;
  temp: number;
  initialMessages: string;
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
  };
}
