import type { Insights } from '@fanpilot/contracts';

/** One of Insights' tables as CSV rows, a header row first (the export's serialization). */
export function insightsTable(data: Insights, table: 'topics' | 'gaps' | 'funnel' | 'quality'): unknown[][] {
  return table === 'topics'
    ? [
        [
          'topic',
          'questions',
          'previous_period',
          'answered_by_ai',
          'handed_over',
          'ratings_up',
          'ratings_down',
          'example',
        ],
        ...data.topics.map((t) => [
          t.label,
          t.questions,
          t.previous,
          t.answeredByAi,
          t.handedOver,
          t.ratingsUp,
          t.ratingsDown,
          t.examples[0]?.question ?? '',
        ]),
      ]
    : table === 'gaps'
      ? [
          ['question', 'topic', 'fans', 'questions', 'last_asked_at'],
          ...data.gaps.map((g) => [g.question, g.topic ?? '', g.fans, g.questions, g.lastAskedAt]),
        ]
      : table === 'funnel'
        ? [
            [
              'start',
              'opened_chat',
              'asked',
              'met_paywall',
              'subscribed',
              'conversion_percent',
              'earnings_usd',
            ],
            ...data.funnel.map((f) => [
              f.start.slice(0, 10),
              f.opened,
              f.asked,
              f.metPaywall,
              f.subscribed,
              f.opened > 0 ? ((100 * f.subscribed) / f.opened).toFixed(1) : '',
              (f.earningsCents / 100).toFixed(2),
            ]),
          ]
        : [
            [
              'start',
              'questions',
              'answered_by_ai',
              'handed_over',
              'ratings_up',
              'ratings_down',
              'median_first_answer_seconds',
            ],
            ...data.quality.map((q) => [
              q.start.slice(0, 10),
              q.questions,
              q.answeredByAi,
              q.handedOver,
              q.ratingsUp,
              q.ratingsDown,
              q.medianFirstAnswerSeconds,
            ]),
          ];
}
