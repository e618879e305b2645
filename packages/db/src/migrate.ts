import type { Kysely } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import * as initial from './migrations/2026-11-22T00-00_initial.ts';
import * as conversations from './migrations/2026-11-22T02-00_conversations.ts';
import * as ingest from './migrations/2026-11-22T02-00_ingest.ts';
import * as askIdempotency from './migrations/2026-11-22T03-00_ask_idempotency.ts';
import * as fanTransfer from './migrations/2026-11-22T10-00_fan_transfer.ts';
import * as aiBudget from './migrations/2026-11-22T10-10_ai_budget.ts';
import * as aiHandedOver from './migrations/2026-11-22T12-30_ai_handed_over.ts';
import * as knowledgeGaps from './migrations/2026-11-22T16-20_knowledge_gaps.ts';
import * as push from './migrations/2026-11-22T16-30_push.ts';
import * as contentHash from './migrations/2026-11-22T16-40_content_hash.ts';
import * as billing from './migrations/2026-11-22T16-50_billing.ts';
import * as inbox from './migrations/2026-11-23T10-00_inbox.ts';
import * as creditTotals from './migrations/2026-11-23T10-10_credit_totals.ts';
import * as changeFeed from './migrations/2026-11-23T11-00_change_feed.ts';
import * as fanSearch from './migrations/2026-11-23T12-00_fan_search.ts';
import * as pushLimits from './migrations/2026-11-23T14-00_push_limits.ts';
import * as fansMayDownload from './migrations/2026-11-24T14-40_fans_may_download.ts';
import * as answerStateFromCore from './migrations/2026-11-25T01-00_answer_state_from_core.ts';
import * as correctionsAndRatings from './migrations/2026-11-25T03-10_corrections_and_ratings.ts';
import * as knowledgeFailedForGood from './migrations/2026-11-25T04-00_knowledge_failed_for_good.ts';
import * as pushOutbox from './migrations/2026-11-25T05-00_push_outbox.ts';
import * as mailOutbox from './migrations/2026-11-26T00-00_mail_outbox.ts';
import * as fanPlans from './migrations/2026-11-26T00-10_fan_plans.ts';
import * as widgetSites from './migrations/2026-11-26T20-00_widget_sites.ts';
import * as correctionSends from './migrations/2026-11-26T40-00_correction_sends.ts';
import * as chunksTsvWithoutPendingList from './migrations/2026-11-26T40-10_chunks_tsv_without_pending_list.ts';
import * as replyDrafts from './migrations/2026-11-27T00-00_reply_drafts.ts';
import * as creatorAlerts from './migrations/2026-11-27T10-00_creator_alerts.ts';
import * as subscriberAlerts from './migrations/2026-11-27T10-10_subscriber_alerts.ts';
import * as subscriptionChanges from './migrations/2026-11-28T00-00_subscription_changes.ts';
import * as unreadyItemsIndex from './migrations/2026-11-28T00-10_unready_items_index.ts';
import * as provedEmail from './migrations/2026-11-29T00-00_proved_email.ts';
import * as payoutAccountLost from './migrations/2026-11-29T00-10_payout_account_lost.ts';
import * as providerNeutralColumns from './migrations/2026-11-29T00-20_provider_neutral_columns.ts';
import * as downloadEpoch from './migrations/2026-11-29T02-00_download_epoch.ts';
import * as restoreRequests from './migrations/2026-11-29T02-10_restore_requests.ts';
import * as fansByBrowser from './migrations/2026-11-29T03-00_fans_by_browser.ts';
import * as widgetRefusals from './migrations/2026-11-29T03-10_widget_refusals.ts';
import * as alertReasons from './migrations/2026-11-29T04-00_alert_reasons.ts';
import * as jobOutbox from './migrations/2026-11-30T01-00_job_outbox.ts';
import * as policyInputsJobs from './migrations/2026-11-30T01-10_policy_inputs_jobs.ts';
import * as fanMemory from './migrations/2026-11-30T02-00_fan_memory.ts';
import * as memoryJobs from './migrations/2026-11-30T02-10_memory_jobs.ts';
import * as questionTopics from './migrations/2026-11-30T04-00_question_topics.ts';
import * as fanCountersQuiet from './migrations/2026-11-30T06-00_fan_counters_quiet.ts';
import * as pushMailJobs from './migrations/2026-11-30T07-00_push_mail_jobs.ts';
import * as insightDays from './migrations/2026-11-30T08-00_insight_days.ts';
import * as chunkWindows from './migrations/2026-11-30T09-00_chunk_windows.ts';
import type { Database } from './types.ts';

/** Every migration, in order. Listed statically so bundled apps carry them. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T00-00_initial': initial,
  '2026-11-22T02-00_conversations': conversations,
  '2026-11-22T02-00_ingest': ingest,
  '2026-11-22T03-00_ask_idempotency': askIdempotency,
  '2026-11-22T10-00_fan_transfer': fanTransfer,
  '2026-11-22T10-10_ai_budget': aiBudget,
  '2026-11-22T12-30_ai_handed_over': aiHandedOver,
  '2026-11-22T16-20_knowledge_gaps': knowledgeGaps,
  '2026-11-22T16-30_push': push,
  '2026-11-22T16-40_content_hash': contentHash,
  '2026-11-22T16-50_billing': billing,
  '2026-11-23T10-00_inbox': inbox,
  '2026-11-23T10-10_credit_totals': creditTotals,
  '2026-11-23T11-00_change_feed': changeFeed,
  '2026-11-23T12-00_fan_search': fanSearch,
  '2026-11-23T14-00_push_limits': pushLimits,
  '2026-11-24T14-40_fans_may_download': fansMayDownload,
  '2026-11-25T01-00_answer_state_from_core': answerStateFromCore,
  '2026-11-25T03-10_corrections_and_ratings': correctionsAndRatings,
  '2026-11-25T04-00_knowledge_failed_for_good': knowledgeFailedForGood,
  '2026-11-25T05-00_push_outbox': pushOutbox,
  '2026-11-26T00-00_mail_outbox': mailOutbox,
  '2026-11-26T00-10_fan_plans': fanPlans,
  '2026-11-26T20-00_widget_sites': widgetSites,
  '2026-11-26T40-00_correction_sends': correctionSends,
  '2026-11-26T40-10_chunks_tsv_without_pending_list': chunksTsvWithoutPendingList,
  '2026-11-27T00-00_reply_drafts': replyDrafts,
  '2026-11-27T10-00_creator_alerts': creatorAlerts,
  '2026-11-27T10-10_subscriber_alerts': subscriberAlerts,
  '2026-11-28T00-00_subscription_changes': subscriptionChanges,
  '2026-11-28T00-10_unready_items_index': unreadyItemsIndex,
  '2026-11-29T00-00_proved_email': provedEmail,
  '2026-11-29T00-10_payout_account_lost': payoutAccountLost,
  '2026-11-29T00-20_provider_neutral_columns': providerNeutralColumns,
  '2026-11-29T02-00_download_epoch': downloadEpoch,
  '2026-11-29T02-10_restore_requests': restoreRequests,
  '2026-11-29T03-00_fans_by_browser': fansByBrowser,
  '2026-11-29T03-10_widget_refusals': widgetRefusals,
  '2026-11-29T04-00_alert_reasons': alertReasons,
  '2026-11-30T01-00_job_outbox': jobOutbox,
  '2026-11-30T01-10_policy_inputs_jobs': policyInputsJobs,
  '2026-11-30T02-00_fan_memory': fanMemory,
  '2026-11-30T02-10_memory_jobs': memoryJobs,
  '2026-11-30T04-00_question_topics': questionTopics,
  '2026-11-30T06-00_fan_counters_quiet': fanCountersQuiet,
  '2026-11-30T07-00_push_mail_jobs': pushMailJobs,
  '2026-11-30T08-00_insight_days': insightDays,
  '2026-11-30T09-00_chunk_windows': chunkWindows,
};

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const error = result.error instanceof Error ? result.error : new Error(String(result.error));
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${error.message}`, {
      cause: error,
    });
  }
  return result;
}
