/** The look of form controls, shared so every field reads the same. */
export const textFieldClass =
  'block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-600 aria-invalid:border-red-500 disabled:bg-slate-50';

export const fileInputClass =
  'block w-full text-sm text-slate-700 file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700 hover:file:bg-brand-100';
