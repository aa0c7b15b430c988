import type { CatalogService } from '../catalog/service.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { notFound } from '../platform/errors.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import { preferencesErrors } from './errors.ts';
import { MAX_FAVOURITES, type PlayerSettings, type SettingsChange } from './schemas.ts';
import * as store from './store.ts';
import type { FavouriteKind } from './tables.ts';

/** A player who never chose: the app's own odds format and quick stakes, and slips that accept better odds only. */
const DEFAULT_SETTINGS: store.Settings = { odds_format: null, accept_odds_changes: 'higher', quick_stakes: null };

const owner = (session: SessionPrincipal): store.Owner => ({
  tenantId: session.tenantId,
  playerId: session.playerId,
});

type PlayerPreferencesDeps = { db: Db; clock: Clock; catalog: CatalogService };

/**
 * What a player keeps on the server so that it follows them from device to device and launch to launch: favourite
 * events and competitions, and settings. Always the session's own player, in the session's tenant environment.
 */
export class PlayerPreferences {
  readonly #deps: PlayerPreferencesDeps;

  constructor(deps: PlayerPreferencesDeps) {
    this.#deps = deps;
  }

  /** The favourites, newest first, each with what the app shows of it (as the catalog has it now). */
  async favourites(session: SessionPrincipal) {
    const rows = await store.favouritesOf(this.#deps.db, owner(session));
    const ids = (kind: FavouriteKind) => rows.filter((row) => row.kind === kind).map((row) => row.target_id);
    const addedAt = new Map(rows.map((row) => [`${row.kind}:${row.target_id}`, row.created_at.toISOString()]));
    const [events, competitions] = await Promise.all([
      this.#deps.catalog.eventSummaries(ids('event')),
      this.#deps.catalog.competitionRecords(ids('competition')),
    ]);
    return {
      events: events.map((event) => ({
        kind: 'event' as const,
        id: event.id,
        addedAt: addedAt.get(`event:${event.id}`)!,
        event,
      })),
      competitions: competitions.map((competition) => ({
        kind: 'competition' as const,
        id: competition.id,
        addedAt: addedAt.get(`competition:${competition.id}`)!,
        competition,
      })),
    };
  }

  /** Marks an event as a favourite; `created` is false when it was one already (nothing changes then). */
  async addEvent(session: SessionPrincipal, eventId: string) {
    const [event] = await this.#deps.catalog.eventSummaries([eventId]);
    if (!event) throw notFound('Event');
    const { addedAt, created } = await this.#add(session, 'event', eventId);
    return { favourite: { kind: 'event' as const, id: eventId, addedAt, event }, created };
  }

  /** Marks a competition as a favourite; `created` is false when it was one already (nothing changes then). */
  async addCompetition(session: SessionPrincipal, competitionId: string) {
    const [competition] = await this.#deps.catalog.competitionRecords([competitionId]);
    if (!competition) throw notFound('Competition');
    const { addedAt, created } = await this.#add(session, 'competition', competitionId);
    return { favourite: { kind: 'competition' as const, id: competitionId, addedAt, competition }, created };
  }

  /** Afterwards it is not a favourite, whether it was one or not. */
  async remove(session: SessionPrincipal, kind: FavouriteKind, targetId: string): Promise<void> {
    await store.deleteFavourite(this.#deps.db, owner(session), kind, targetId);
  }

  /** One more favourite, within the limit; the one kept already when it is (the limit does not apply to it). */
  #add(session: SessionPrincipal, kind: FavouriteKind, targetId: string) {
    const player = owner(session);
    return inTransaction(this.#deps.db, async (tx) => {
      await store.lockFavouritesOf(tx, player);
      const kept = await store.findFavourite(tx, player, kind, targetId);
      if (kept) return { addedAt: kept.created_at.toISOString(), created: false };
      if ((await store.countFavourites(tx, player)) >= MAX_FAVOURITES) {
        throw preferencesErrors.favourites_full({ limit: MAX_FAVOURITES });
      }
      const at = this.#deps.clock.now();
      await store.insertFavourite(tx, player, { kind, targetId, at });
      return { addedAt: at.toISOString(), created: true };
    });
  }

  async settings(session: SessionPrincipal): Promise<PlayerSettings> {
    return settingsView((await store.settingsOf(this.#deps.db, owner(session))) ?? DEFAULT_SETTINGS);
  }

  /** Sets the settings the change names and keeps the others. */
  async updateSettings(session: SessionPrincipal, change: SettingsChange): Promise<PlayerSettings> {
    const columns: Partial<store.Settings> = {};
    if (change.oddsFormat !== undefined) columns.odds_format = change.oddsFormat;
    if (change.acceptOddsChanges !== undefined) columns.accept_odds_changes = change.acceptOddsChanges;
    if (change.quickStakes !== undefined) columns.quick_stakes = change.quickStakes;
    const saved = await store.saveSettings(
      this.#deps.db,
      owner(session),
      columns,
      DEFAULT_SETTINGS,
      this.#deps.clock.now(),
    );
    return settingsView(saved);
  }
}

function settingsView(row: store.Settings): PlayerSettings {
  return { oddsFormat: row.odds_format, acceptOddsChanges: row.accept_odds_changes, quickStakes: row.quick_stakes };
}
