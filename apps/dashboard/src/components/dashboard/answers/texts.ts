import { count } from '../../../texts.ts';

/** The answers' words: corrections, the Try-your-chatbot card, answers rated down and cited answers (cards under the first screen, Chat Management), apart from texts.ts so that they load with them (issue 39). Which model answers is TEXT.answerer. */
export const ANSWERS_TEXT = {
  sourceMarker: (n: number, title: string) => `Source ${n}: ${title}`,
  correct: 'Correct',
  correctLabel: 'Correct this answer',
  correctionQuestion: 'Question',
  correctionAnswer: 'The right answer',
  correctionHint: 'The AI answers this question (and the same question in other words) with it from now on.',
  correctionSend: 'Also send it to every fan who got the wrong answer',
  correctionSave: 'Save correction',
  correctionSaving: 'Saving…',
  correctionSaved: (sent: number) =>
    sent > 0
      ? `Correction saved and sent to ${sent === 1 ? 'the fan' : `${sent} fans`}.`
      : 'Correction saved.',
  correctionFailed: 'Could not save the correction.',
  cancel: 'Cancel',
  ratedUp: 'Fan: helpful',
  ratedDown: 'Fan: not helpful',
  playground: {
    heading: 'Try your chatbot',
    lead: 'Ask as a fan would and see the answer, its sources and the passages found. Free: no credits, nothing in your inbox.',
    label: 'Your question',
    placeholder: 'Ask something a fan would ask…',
    ask: 'Ask',
    asking: 'Asking…',
    answerLabel: 'Answer',
    handedOver: 'A fan would be told the question was passed on to you, and it would wait in your inbox.',
    byModel: (model: string | null) =>
      model ? `Written by ${model}.` : 'Quoted by the embedded answerer (no AI model configured).',
    fromCorrection: 'Answered from your correction.',
    passages: (n: number) => `Passages found (${n})`,
    noPassages: 'No passage of your material matched.',
    failed: 'Could not try the question.',
  },
  list: {
    heading: 'Your corrections',
    lead: 'Your own answers. Each wins over your other material for its question and the same question in other words.',
    empty:
      'No corrections yet. Correct an AI answer (in Try your chatbot, a conversation or the answers rated down) and it shows here.',
    listLabel: 'Corrections',
    question: (q: string) => `Q: ${q}`,
    updated: 'Last saved:',
    fans: 'Fans who got a wrong answer',
    fansLoading: 'Looking for fans who got a wrong answer…',
    fansNone: 'No fan got a wrong answer to this question.',
    fansFailed: 'Could not look for the fans who got a wrong answer.',
    fanSent: 'sent',
    fanAsked: (name: string | null, question: string) => `${name || 'A fan'} asked “${question}”`,
    send: (n: number) => (n === 1 ? 'Send to 1 fan' : `Send to ${n} fans`),
    sending: 'Sending…',
    sentTo: (n: number) =>
      n === 0 ? 'Every fan was already sent it.' : `Correction sent to ${count(n, 'fan', 'fans')}.`,
    sendFailed: 'Could not send the correction.',
    hide: 'Hide',
    delete: 'Delete',
    confirmDelete: 'Delete this correction?',
    confirmDeleteDetail: 'The AI answers this question from your material again. Messages already sent stay.',
    deleted: 'Correction deleted',
    deleteFailed: 'Could not delete the correction.',
  },
  poor: {
    heading: 'Answers fans rated down',
    lead: 'Correct them once: the AI uses your answer from then on.',
    empty: 'No answer has been rated down.',
    listLabel: 'Answers rated down',
    question: (q: string | null) => (q ? `Q: ${q}` : 'Q: (not found)'),
    by: (name: string | null) => `Rated not helpful by ${name || 'a fan'}`,
    corrected: 'Corrected',
  },
} as const;
