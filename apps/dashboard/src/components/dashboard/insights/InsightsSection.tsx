import { INSIGHT_PERIOD_DAYS, type InsightPeriodDays, type Insights, urlOf } from '@fanpilot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, type Ref, useId, useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api } from '../../../lib/api.ts';
import { dollars } from '../../../lib/billing.ts';
import { chatbotQuery } from '../../../lib/queries.ts';
import { Card } from '../Card.tsx';
import { AddKnowledgeModal } from '../chatbot/AddKnowledgeModal.tsx';
import { GapRow } from '../overview/KnowledgeGapsCard.tsx';
import { SectionHeading } from '../SectionHeading.tsx';
import { INSIGHTS_TEXT as t } from './texts.ts';

// Insights (issue 38, record 0081). This module, and recharts with it, loads only when the section
// opens (DashboardPage imports it lazily). Each chart is drawn for the eye and hidden from assistive
// technology; the table under it holds the same numbers.

const insightsQuery = (username: string, period: InsightPeriodDays) => ({
  queryKey: ['creator', username, 'insights', period],
  queryFn: (): Promise<Insights> =>
    api.call('insights', { params: { username }, query: { period: String(period) } }) as Promise<Insights>,
});

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–');
const seconds = (s: number | null) =>
  s === null ? '–' : s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;

const COLORS = { a: '#4f46e5', b: '#94a3b8', c: '#0d9488', d: '#d97706', e: '#dc2626' };

export function InsightsSection({
  username,
  headingRef,
}: {
  username: string;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const [period, setPeriod] = useState<InsightPeriodDays>(30);
  const queryClient = useQueryClient();
  const q = useQuery({
    ...insightsQuery(username, period),
    // While questions wait to be grouped, look again soon.
    refetchInterval: (query) => ((query.state.data?.ungrouped ?? 0) > 0 ? 5_000 : 60_000),
  });
  const data = q.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['creator', username, 'insights'] });
  return (
    <>
      <SectionHeading headingRef={headingRef} title={t.heading} lead={t.lead} />
      <fieldset className="mb-6 flex flex-wrap items-center gap-2">
        <legend className="sr-only">{t.periodLabel}</legend>
        {INSIGHT_PERIOD_DAYS.map((days) => (
          <button
            key={days}
            type="button"
            aria-pressed={period === days}
            onClick={() => setPeriod(days)}
            className={`rounded-full border px-4 py-1.5 text-sm font-medium ${period === days ? 'border-brand-700 bg-brand-50 text-brand-800' : 'border-slate-300 bg-white text-slate-700'}`}
          >
            {t.period(days)}
          </button>
        ))}
        {data && data.ungrouped > 0 && (
          <p role="status" className="text-sm text-slate-600">
            {t.grouping(data.ungrouped)}
          </p>
        )}
      </fieldset>
      {!data ? (
        <p role="status" className="text-sm text-slate-600">
          {q.isError ? t.failed : t.loading}
        </p>
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <TopicsCard data={data} username={username} />
          <GapsCard data={data} username={username} onDone={refresh} />
          <FunnelCard data={data} username={username} />
          <QualityCard data={data} username={username} />
        </div>
      )}
    </>
  );
}

function CsvLink({
  username,
  table,
  period,
  label,
}: {
  username: string;
  table: string;
  period: number;
  label: string;
}) {
  return (
    <a
      href={`${urlOf('insightsCsv', { username, table })}?period=${period}`}
      download
      aria-label={t.csvOf(label)}
      className="shrink-0 rounded-lg border border-slate-300 px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50"
    >
      {t.csv}
    </a>
  );
}

/** A chart (hidden from screen readers) and the table of its numbers. */
function Figure({ title, chart, table }: { title: string; chart: ReactNode; table: ReactNode }) {
  const id = useId();
  return (
    <figure aria-labelledby={id} className="mt-2">
      <figcaption id={id} className="text-sm font-medium text-slate-700">
        {title}
      </figcaption>
      <div aria-hidden="true" className="mt-2 h-60 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {chart as never}
        </ResponsiveContainer>
      </div>
      <section
        aria-label={t.tableOf(title)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table is reachable by keyboard
        tabIndex={0}
        className="mt-3 max-h-80 overflow-auto rounded-lg border border-slate-100"
      >
        {table}
      </section>
    </figure>
  );
}

const th = 'whitespace-nowrap bg-slate-50 px-2 py-1.5 text-left font-semibold text-slate-700';
const td = 'whitespace-nowrap px-2 py-1.5 text-left align-top text-slate-800';

/** A column of a DataTable: its header and what a row shows in it. */
interface Column<R> {
  header: string;
  cell: (row: R) => ReactNode;
  /** The cell's classes, when not the plain number cell's. */
  className?: string;
}

/**
 * The table behind a chart (every Insights table): column headers, then a row per item whose first
 * column is the row's header (scope="row"), so a screen reader names each number by row and column.
 */
function DataTable<R>({
  columns,
  rows,
  rowKey,
  rowTestId,
}: {
  /** The first column heads each row. */
  columns: [Column<R>, ...Column<R>[]];
  rows: R[];
  rowKey: (row: R) => string;
  rowTestId?: string;
}) {
  const [head, ...rest] = columns;
  return (
    <table className="w-full text-sm">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={th}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={rowKey(r)} data-testid={rowTestId}>
            <th scope="row" className={head.className ?? `${td} font-medium`}>
              {head.cell(r)}
            </th>
            {rest.map((c) => (
              <td key={c.header} className={c.className ?? td}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TopicsCard({ data, username }: { data: Insights; username: string }) {
  const rows = data.topics;
  const chartRows = rows.slice(0, 8).map((r) => ({ name: r.label, now: r.questions, before: r.previous }));
  return (
    <Card
      title={t.topics.heading}
      className="xl:col-span-2"
      action={<CsvLink username={username} table="topics" period={data.period} label={t.topics.heading} />}
    >
      <p className="-mt-2 mb-2 text-sm text-slate-600">{t.topics.lead}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t.topics.empty}</p>
      ) : (
        <Figure
          title={t.topics.chart}
          chart={
            <BarChart
              accessibilityLayer={false}
              data={chartRows}
              layout="vertical"
              margin={{ left: 8, right: 16 }}
            >
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} />
              <YAxis type="category" dataKey="name" width={110} tick={{ fontSize: 12 }} />
              <Tooltip />
              <Legend />
              <Bar dataKey="now" name={t.topics.questions} fill={COLORS.a} isAnimationActive={false} />
              <Bar dataKey="before" name={t.topics.previous} fill={COLORS.b} isAnimationActive={false} />
            </BarChart>
          }
          table={
            <DataTable
              rows={rows}
              rowKey={(r) => r.id}
              rowTestId="insights-topic"
              columns={[
                { header: t.topics.topic, cell: (r) => r.label },
                { header: t.topics.questions, cell: (r) => r.questions },
                { header: t.topics.trend, cell: (r) => t.topics.trendText(r.questions, r.previous) },
                { header: t.topics.ai, cell: (r) => percent(r.answeredByAi, r.questions) },
                { header: t.topics.handedOver, cell: (r) => percent(r.handedOver, r.questions) },
                { header: t.topics.ratings, cell: (r) => t.topics.ratingsText(r.ratingsUp, r.ratingsDown) },
                {
                  header: t.topics.examples,
                  className: 'min-w-56 px-2 py-1.5',
                  cell: (r) => (
                    <ul className="space-y-1">
                      {r.examples.map((e) => (
                        <li key={e.id}>
                          {e.fanId ? (
                            <a
                              href={`/dashboard/${encodeURIComponent(username)}?fan=${encodeURIComponent(e.fanId)}`}
                              aria-label={t.topics.open(e.question)}
                              className="text-brand-700 underline underline-offset-2"
                            >
                              {e.question}
                            </a>
                          ) : (
                            e.question
                          )}
                        </li>
                      ))}
                    </ul>
                  ),
                },
              ]}
            />
          }
        />
      )}
    </Card>
  );
}

function GapsCard({ data, username, onDone }: { data: Insights; username: string; onDone: () => unknown }) {
  const chatbot = useQuery(chatbotQuery(username)).data;
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title={t.gaps.heading}
      className="xl:col-span-2"
      action={<CsvLink username={username} table="gaps" period={data.period} label={t.gaps.heading} />}
    >
      <p className="-mt-2 mb-2 text-sm text-slate-600">{t.gaps.lead}</p>
      {data.gaps.length === 0 ? (
        <p className="text-sm text-slate-600">{t.gaps.empty}</p>
      ) : (
        <ol aria-label={t.gaps.heading} className="divide-y divide-slate-100">
          {data.gaps.map((g) => (
            <GapRow
              key={g.questionIds[0]}
              gap={{
                question: g.question,
                count: g.questions,
                fans: g.fans,
                lastAskedAt: g.lastAskedAt,
                questionIds: g.questionIds,
              }}
              username={username}
              chatbotId={chatbot?.id}
              answerText={t.gaps.answer}
              onDone={onDone}
              extraAction={
                chatbot ? (
                  <button
                    type="button"
                    onClick={() => setAdding(true)}
                    className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50"
                  >
                    {t.gaps.addSource}
                  </button>
                ) : null
              }
            />
          ))}
        </ol>
      )}
      {chatbot && (
        <AddKnowledgeModal username={username} chatbot={chatbot} open={adding} onOpenChange={setAdding} />
      )}
    </Card>
  );
}

function FunnelCard({ data, username }: { data: Insights; username: string }) {
  const rows = data.funnel.map((f) => ({
    ...f,
    name: day(f.start),
    conversion: f.opened > 0 ? Math.round((1000 * f.subscribed) / f.opened) / 10 : 0,
    earnings: f.earningsCents / 100,
  }));
  return (
    <Card
      title={t.funnel.heading}
      action={<CsvLink username={username} table="funnel" period={data.period} label={t.funnel.heading} />}
    >
      <p className="-mt-2 mb-2 text-sm text-slate-600">{t.funnel.lead}</p>
      <Figure
        title={t.funnel.chart}
        chart={
          <BarChart accessibilityLayer={false} data={rows}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="name" tick={{ fontSize: 11 }} />
            <YAxis allowDecimals={false} width={36} />
            <Tooltip />
            <Legend />
            <Bar dataKey="opened" name={t.funnel.opened} fill={COLORS.b} isAnimationActive={false} />
            <Bar dataKey="asked" name={t.funnel.asked} fill={COLORS.a} isAnimationActive={false} />
            <Bar dataKey="metPaywall" name={t.funnel.metPaywall} fill={COLORS.d} isAnimationActive={false} />
            <Bar dataKey="subscribed" name={t.funnel.subscribed} fill={COLORS.c} isAnimationActive={false} />
          </BarChart>
        }
        table={
          <DataTable
            rows={rows}
            rowKey={(r) => r.start}
            columns={[
              { header: t.funnel.start, cell: (r) => r.name },
              { header: t.funnel.opened, cell: (r) => r.opened },
              { header: t.funnel.asked, cell: (r) => r.asked },
              { header: t.funnel.metPaywall, cell: (r) => r.metPaywall },
              { header: t.funnel.subscribed, cell: (r) => r.subscribed },
              { header: t.funnel.conversion, cell: (r) => percent(r.subscribed, r.opened) },
              { header: t.funnel.earnings, cell: (r) => dollars(r.earningsCents) },
            ]}
          />
        }
      />
      <Figure
        title={t.funnel.moneyChart}
        chart={
          <LineChart accessibilityLayer={false} data={rows}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="name" tick={{ fontSize: 11 }} />
            <YAxis yAxisId="pct" unit="%" width={40} />
            <YAxis yAxisId="usd" orientation="right" unit="$" width={48} />
            <Tooltip />
            <Legend />
            <Line
              yAxisId="pct"
              dataKey="conversion"
              name={t.funnel.conversion}
              stroke={COLORS.c}
              isAnimationActive={false}
            />
            <Line
              yAxisId="usd"
              dataKey="earnings"
              name={t.funnel.earnings}
              stroke={COLORS.a}
              isAnimationActive={false}
            />
          </LineChart>
        }
        table={
          <DataTable
            rows={rows}
            rowKey={(r) => r.start}
            columns={[
              { header: t.funnel.start, cell: (r) => r.name },
              { header: t.funnel.conversion, cell: (r) => percent(r.subscribed, r.opened) },
              { header: t.funnel.earnings, cell: (r) => dollars(r.earningsCents) },
            ]}
          />
        }
      />
    </Card>
  );
}

function QualityCard({ data, username }: { data: Insights; username: string }) {
  const rows = data.quality.map((r) => ({ ...r, name: day(r.start) }));
  return (
    <Card
      title={t.quality.heading}
      action={<CsvLink username={username} table="quality" period={data.period} label={t.quality.heading} />}
    >
      <p className="-mt-2 mb-2 text-sm text-slate-600">{t.quality.lead}</p>
      <Figure
        title={t.quality.chart}
        chart={
          <LineChart accessibilityLayer={false} data={rows}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="name" tick={{ fontSize: 11 }} />
            <YAxis allowDecimals={false} width={36} />
            <Tooltip />
            <Legend />
            <Line dataKey="answeredByAi" name={t.quality.ai} stroke={COLORS.a} isAnimationActive={false} />
            <Line
              dataKey="handedOver"
              name={t.quality.handedOver}
              stroke={COLORS.d}
              isAnimationActive={false}
            />
            <Line dataKey="ratingsUp" name={t.quality.up} stroke={COLORS.c} isAnimationActive={false} />
            <Line dataKey="ratingsDown" name={t.quality.down} stroke={COLORS.e} isAnimationActive={false} />
          </LineChart>
        }
        table={
          <DataTable
            rows={rows}
            rowKey={(r) => r.start}
            columns={[
              { header: t.quality.start, cell: (r) => r.name },
              { header: t.quality.questions, cell: (r) => r.questions },
              { header: t.quality.ai, cell: (r) => r.answeredByAi },
              { header: t.quality.handedOver, cell: (r) => r.handedOver },
              { header: t.quality.up, cell: (r) => r.ratingsUp },
              { header: t.quality.down, cell: (r) => r.ratingsDown },
              { header: t.quality.firstAnswer, cell: (r) => seconds(r.medianFirstAnswerSeconds) },
            ]}
          />
        }
      />
    </Card>
  );
}
