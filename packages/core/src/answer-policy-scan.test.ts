import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// "May the AI answer this question?" has ONE definition: packages/core/src/answer-policy.ts. This
// scan fails if the rule's pieces (a balance against an answer's price, today's answers against the
// daily budget, a refusal decided on the spot, the old helpers) appear in any other source file of
// apps/ or packages/. Tests, migrations before 2026-11-25T01-00 (history) and build output aside.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const POLICY = path.join(root, 'packages/core/src/answer-policy.ts');
/** The entitlement (record 0069): whose subscription, is it open, the allowance. Guarded the same way. */
const ENTITLEMENT = path.join(root, 'packages/core/src/entitlement.ts');

const PATTERNS: { name: string; pattern: RegExp }[] = [
  {
    name: 'an old answer-policy helper',
    pattern: /\b(aiAllowance|AiAllowance|creditBalance|forecastAiAnswer)\b/g,
  },
  {
    name: 'a balance against an answer’s price',
    pattern:
      /(<=|>=|<|>|\/)\s*\(?\s*\$?\{?\s*CREDITS_PER_AI_ANSWER|CREDITS_PER_AI_ANSWER\s*\)?\s*(<=|>=|<|>|\/)/g,
  },
  {
    name: 'today’s answers against the daily budget',
    pattern:
      /\b(answers_?today|aiAnswersToday|today)\b[^;\n]{0,60}?(<=|>=|<|>)[^;\n]{0,60}?\b(daily_ai_budget|dailyAiBudget|dailyBudget)\b|\b(daily_ai_budget|dailyAiBudget|dailyBudget)\b\s*(<=|>=|<|>|-)\s*[^;\n]{0,60}?\b(answers_?today|aiAnswersToday|today|count)\b/gi,
  },
  {
    name: 'today’s AI answers counted from the ledger',
    pattern: /'ai_answer'[^;]{0,120}?created_at'?\s*,?\s*'?(>=|>)/g,
  },
  { name: 'the day boundary of the budget', pattern: /\bstartOfUtcDay\s*\(/g },
  {
    name: 'a refusal decided on the spot',
    pattern: /return\s+'(creator_online|no_credits|no_chatbot|over_budget)'/g,
  },
];

/** The entitlement's pieces: none may appear outside entitlement.ts. */
const ENTITLEMENT_PATTERNS: { name: string; pattern: RegExp }[] = [
  {
    name: 'a subscription’s access compared',
    pattern:
      /access_until['"`]?\s*,\s*['"`](<=|>=|<|>)['"`]|access_until\s*(<=|>=|<|>)\s|\(\s*\w+(\?|!)?\.access_until\s*\)\s*(<=|>=|<|>)\s/g,
  },
  { name: 'the grace reckoned', pattern: /SUBSCRIPTION_GRACE_DAYS\s*\*/g },
  {
    name: 'a subscription matched by a typed email',
    pattern:
      /lower\(\s*\w+\.email\s*\)\s*['"`]?\s*,?\s*['"`]?=['"`]?\s*,?\s*sql`lower\(\w+\.email\)|lower\(\s*s\.email\s*\)\s*=\s*lower\(\s*f\.email\s*\)/g,
  },
  { name: 'the allowance’s month boundary', pattern: /\bstartOfUtcMonth\s*\(/g },
];

/** Files allowed one of the patterns, and why. */
const ALLOWED: Record<string, string[]> = {
  // The credits chart counts charges per day over 30 days (a figure, not the policy).
  'packages/core/src/billing.ts': [
    'the day boundary of the budget',
    'today’s AI answers counted from the ledger',
  ],
  // Earnings count this month's new subscriptions and paid invoices (figures, not the allowance).
  'packages/core/src/fan-plans/earnings.ts': ['the allowance’s month boundary'],
  // Marks, once, the emails the payment provider already proved (a subscription bought from the very
  // conversation that gave the same email): a migration of data, not a rule applied at run time.
  'packages/db/src/migrations/2026-11-29T00-00_proved_email.ts': ['a subscription matched by a typed email'],
};

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test', 'tests', 'e2e', 'bench']);
/**
 * Migrations are history, but only up to the change feed's trigger, whose credit branches restated
 * the rule; 2026-11-25T01-00_answer_state_from_core removed them, and no later one may bring it back.
 */
const HISTORY_UNTIL = '2026-11-25T01-00';
const isHistory = (dir: string, name: string) => path.basename(dir) === 'migrations' && name < HISTORY_UNTIL;
const isTestFile = (name: string) => /\.(test|spec)\.tsx?$/.test(name);
const isSource = (name: string) => /\.(ts|tsx|mts|cts|js|mjs)$/.test(name) && !name.endsWith('.d.ts');

/** The policy's pieces found in one file's text. */
export function findPolicyPieces(text: string): { line: number; name: string; match: string }[] {
  const found: { line: number; name: string; match: string }[] = [];
  for (const { name, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      found.push({ line: text.slice(0, match.index).split('\n').length, name, match: match[0] });
    }
  }
  return found;
}

/** The entitlement's pieces found in one file's text. */
export function findEntitlementPieces(text: string): { line: number; name: string; match: string }[] {
  const found: { line: number; name: string; match: string }[] = [];
  for (const { name, pattern } of ENTITLEMENT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      found.push({ line: text.slice(0, match.index).split('\n').length, name, match: match[0] });
    }
  }
  return found;
}

function scan(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full);
      } else if (
        entry.isFile() &&
        isSource(entry.name) &&
        !isTestFile(entry.name) &&
        !isHistory(current, entry.name)
      ) {
        const file = path.relative(root, full);
        const text = readFileSync(full, 'utf8');
        const pieces = [
          ...(full === POLICY ? [] : findPolicyPieces(text)),
          ...(full === ENTITLEMENT ? [] : findEntitlementPieces(text)),
        ];
        for (const piece of pieces) {
          if (ALLOWED[file]?.includes(piece.name)) continue;
          found.push(`${file}:${piece.line} ${piece.name}: ${piece.match}`);
        }
      }
    }
  };
  walk(dir);
  return found;
}

describe('the answer policy and the entitlement each have one definition', () => {
  it.each(['apps', 'packages'])('no source file under %s/ decides them outside their modules', (dir) => {
    expect(scan(path.join(root, dir))).toEqual([]);
  });

  it('the patterns describe the rule as the policy module writes it', () => {
    const names = new Set(findPolicyPieces(readFileSync(POLICY, 'utf8')).map((p) => p.name));
    expect(names).toEqual(
      new Set([
        'a balance against an answer’s price',
        'today’s answers against the daily budget',
        'today’s AI answers counted from the ledger',
        'the day boundary of the budget',
        'a refusal decided on the spot',
      ]),
    );
  });

  // The forms the rule took before it had one home; each must be caught.
  it.each([
    ['credits.ts aiAllowance', 'const allowance = await aiAllowance(db, creatorId, now);'],
    [
      'conversations.ts, under the lock',
      "if ((await creditBalance(trx, creator.id)) < CREDITS_PER_AI_ANSWER) return 'no_credits';",
    ],
    [
      'conversations.ts, the budget under the lock',
      "if ((await aiAnswersToday(trx, creator.id, input.now)) >= budget.daily_ai_budget) return 'over_budget';",
    ],
    ['handler.ts pre-check', "if (question.is_online) return 'creator_online';"],
    ['credits.ts usage', 'aiBudgetReached: today >= dailyAiBudget,'],
    ['credits.ts allowance', ': answersToday >= chatbot.daily_ai_budget'],
    [
      'recover.ts sweep SQL, the balance',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the old source, verbatim
      '(select coalesce(max(t.balance), 0) from credit_totals t where t.creator_id = c.id) / ${CREDITS_PER_AI_ANSWER},',
    ],
    [
      'recover.ts sweep SQL, the budget',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the old source, verbatim
      "b.daily_ai_budget - (select count(*) from credit_ledger l where l.creator_id = c.id\n and l.reason = 'ai_answer' and l.created_at >= ${startOfUtcDay(new Date(now))})",
    ],
    ['recover.ts forecast', 'allowance.answersToday + ahead < (allowance.dailyBudget ?? 0);'],
    [
      'fan-chat route',
      '!creator.is_online && (await forecastAiAnswer(app.db, creator.id, messageId)).answers;',
    ],
    [
      'a Kysely count of today’s answers',
      ".where('reason', '=', 'ai_answer')\n    .where('created_at', '>=', dayStart)",
    ],
  ])('catches %s', (_where, code) => {
    expect(findPolicyPieces(code)).not.toEqual([]);
  });

  it('the entitlement’s patterns describe it as its module writes it', () => {
    const names = new Set(findEntitlementPieces(readFileSync(ENTITLEMENT, 'utf8')).map((p) => p.name));
    expect(names).toEqual(new Set(['the grace reckoned', 'the allowance’s month boundary']));
  });

  // The entitlement's forms on main before record 0069, in six places; each must be caught.
  it.each([
    [
      'fan-state.ts, the fan plan',
      "    .where('access_until', 'is not', null)\n  const subscribed = Boolean(sub?.access_until && new Date(sub.access_until) > now);",
    ],
    [
      'subscribe.ts, a second checkout',
      '  if (sub?.access_until && new Date(sub.access_until) > now && !sub.ended_reason) {',
    ],
    ['restore.ts, the link', "    .where('access_until', '>', now)"],
    [
      'answer-policy.ts, the snapshot',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the old source, verbatim
      'and (s.fan_id = f.id or (f.email is not null and lower(s.email) = lower(f.email)))\n where f.id = ${fan} and s.access_until > ${now}) as fan_subscribed,',
    ],
    [
      'earnings.ts, the inbox mark',
      "eb.or([eb('s.fan_id', '=', eb.ref('f.id')), eb(sql`lower(s.email)`, '=', sql`lower(f.email)`)]),",
    ],
    [
      'stripe-facts.ts, the grace',
      'next.grace_until = new Date((event.created + SUBSCRIPTION_GRACE_DAYS * 86_400) * 1000);',
    ],
    ['fan-state.ts, the allowance', ".where('created_at', '>=', startOfUtcMonth(now))"],
  ])('catches %s', (_where, code) => {
    expect(findEntitlementPieces(code)).not.toEqual([]);
  });
});
