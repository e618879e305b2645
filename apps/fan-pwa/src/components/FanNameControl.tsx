import { type FormEvent, useState } from 'react';
import { FAN_NAME_MAX_LENGTH } from '../lib/fanId.ts';
import { texts } from '../texts.ts';

/** The fan's optional display name, kept on this device and sent with each message as fanName. */
export function FanNameControl({ name, onSave }: { name: string; onSave: (name: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);

  if (!editing) {
    return (
      <p className="mb-1.5 flex items-center gap-2 text-xs text-slate-600">
        <span className="truncate">{texts.chattingAs(name)}</span>
        <button
          type="button"
          onClick={() => {
            setValue(name);
            setEditing(true);
          }}
          className="shrink-0 font-medium text-brand-800 underline"
        >
          {name ? texts.changeName : texts.addName}
        </button>
      </p>
    );
  }

  const save = (event: FormEvent) => {
    event.preventDefault();
    onSave(value);
    setEditing(false);
  };

  return (
    // A div, not a nested form: this sits inside the message form.
    <div className="mb-2 flex items-center gap-2">
      <label htmlFor="fan-name" className="sr-only">
        {texts.nameLabel}
      </label>
      <input
        id="fan-name"
        // biome-ignore lint/a11y/noAutofocus: opened by the fan's own tap on "Add your name"
        autoFocus
        value={value}
        maxLength={FAN_NAME_MAX_LENGTH}
        autoComplete="nickname"
        placeholder={texts.nameLabel}
        onChange={(event) => setValue(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save(event);
          if (event.key === 'Escape') setEditing(false);
        }}
        className="min-w-0 flex-1 rounded-lg border border-slate-300 px-2.5 py-1.5 text-base text-slate-900 focus:border-brand-700 focus:outline-2 focus:outline-brand-700"
      />
      <button
        type="button"
        onClick={save}
        className="rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
      >
        {texts.saveName}
      </button>
      <button
        type="button"
        onClick={() => setEditing(false)}
        className="rounded-lg px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
      >
        {texts.cancel}
      </button>
    </div>
  );
}
