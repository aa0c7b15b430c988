import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001_foundation.ts';
import * as provisioning from './0002_provisioning.ts';
import * as sessions from './0003_sessions.ts';
import * as credentialHold from './0004_platform_credential_hold.ts';
import * as catalogBetting from './0005_catalog_betting.ts';
import * as platformInOrder from './0006_platform_in_order.ts';
import * as ledgerStates from './0007_ledger_states.ts';
import * as settlement from './0008_settlement.ts';
import * as deliverableIndex from './0009_deliverable_index.ts';
import * as statementCheck from './0010_statement_check.ts';
import * as obligationHistory from './0011_obligation_history.ts';
import * as adjustmentApproval from './0012_adjustment_approval.ts';
import * as adminReads from './0013_admin_reads.ts';
import * as staffConsole from './0014_staff_console.ts';
import * as liveClock from './0015_live_clock.ts';
import * as betOutcomeOverride from './0016_bet_outcome_override.ts';
import * as aggregatorAllowedIps from './0017_aggregator_allowed_ips.ts';
import * as marketDepth from './0018_market_depth.ts';
import * as playerPreferences from './0019_player_preferences.ts';
import * as leanWriteIndexes from './0020_lean_write_indexes.ts';
import * as adjustmentKeysPerStaff from './0021_adjustment_keys_per_staff.ts';
import * as changeNotifications from './0022_change_notifications.ts';
import * as feed from './0023_feed.ts';
import * as liveBetDelay from './0024_live_bet_delay.ts';
import * as stakeFactors from './0025_stake_factors.ts';
import * as sandboxAdjustments from './0026_sandbox_adjustments.ts';
import * as writtenOff from './0027_written_off.ts';

/** Every migration, in order. Both PGlite and PostgreSQL run exactly this list. */
const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_provisioning': provisioning,
  '0003_sessions': sessions,
  '0004_platform_credential_hold': credentialHold,
  '0005_catalog_betting': catalogBetting,
  '0006_platform_in_order': platformInOrder,
  '0007_ledger_states': ledgerStates,
  '0008_settlement': settlement,
  '0009_deliverable_index': deliverableIndex,
  '0010_statement_check': statementCheck,
  '0011_obligation_history': obligationHistory,
  '0012_adjustment_approval': adjustmentApproval,
  '0013_admin_reads': adminReads,
  '0014_staff_console': staffConsole,
  '0015_live_clock': liveClock,
  '0016_bet_outcome_override': betOutcomeOverride,
  '0017_aggregator_allowed_ips': aggregatorAllowedIps,
  '0018_market_depth': marketDepth,
  '0019_player_preferences': playerPreferences,
  '0020_lean_write_indexes': leanWriteIndexes,
  '0021_adjustment_keys_per_staff': adjustmentKeysPerStaff,
  '0022_change_notifications': changeNotifications,
  '0023_feed': feed,
  '0024_live_bet_delay': liveBetDelay,
  '0025_stake_factors': stakeFactors,
  '0026_sandbox_adjustments': sandboxAdjustments,
  '0027_written_off': writtenOff,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
