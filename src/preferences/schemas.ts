import { Type, type Static, type TSchema } from 'typebox';
import { EventSummary } from '../catalog/schemas.ts';
import { platformErrors } from '../platform/errors.ts';
import { preferencesErrors } from './errors.ts';
import { ODDS_CHANGE_ACCEPTANCE } from '../betting/states.ts';
import { ODDS_FORMATS } from './states.ts';

/** How many favourites (events and competitions together) a player keeps at most. */
export const MAX_FAVOURITES = 200;
/** How many quick stake amounts a player keeps at most: the slip's row of buttons. */
const MAX_QUICK_STAKES = 4;
/** The largest quick stake: the largest stake a slip may carry (POST /api/v1/bets), in minor units. */
const MAX_QUICK_STAKE = 1_000_000_000_000;

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, options = {}) =>
  Type.Union([schema, Type.Null()], options);
/** A catalog id, as the catalog bounds them. */
const CatalogId = Type.String({ minLength: 1, maxLength: 64 });

const CompetitionView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  country: Type.String(),
  sport: Type.Object({ id: Type.String(), name: Type.String() }),
});

const FavouriteEvent = Type.Object({
  kind: Type.Literal('event'),
  id: Type.String({ description: 'the event id' }),
  addedAt: Timestamp,
  event: EventSummary,
});
const FavouriteCompetition = Type.Object({
  kind: Type.Literal('competition'),
  id: Type.String({ description: 'the competition id' }),
  addedAt: Timestamp,
  competition: CompetitionView,
});

const tags = ['player: favourites'];
const favouritesDescription =
  `At most ${MAX_FAVOURITES} favourites per player, events and competitions together. They belong to the player ` +
  "of the session, in the session's tenant environment (a sandbox player's are apart from production's).";

export const listFavouritesSchema = {
  tags,
  operationId: 'listFavourites',
  summary: "The player's favourite events and competitions, each newest first",
  description:
    `${favouritesDescription} An event stays a favourite after it is over (its status says so) until the player ` +
    'removes it.',
  response: {
    200: Type.Object({
      events: Type.Array(FavouriteEvent, { description: 'each event as the catalog lists show it' }),
      competitions: Type.Array(FavouriteCompetition),
    }),
  },
};

/** Adding and removing one favourite of a kind, at /api/v1/favourites/{events|competitions}/{id}. */
function favouriteSchemas<Params extends TSchema, Item extends TSchema>(
  kind: 'Event' | 'Competition',
  params: Params,
  item: Item,
) {
  const one = kind === 'Event' ? 'an event' : 'a competition';
  const put = {
    tags,
    operationId: `addFavourite${kind}`,
    summary: `Mark ${one} as a favourite (idempotent)`,
    description:
      `${favouritesDescription} Adding one already kept changes nothing and answers 200 with it as it was ` +
      `(addedAt included); ${one} the catalog does not have is 404 not_found.`,
    params,
    response: {
      200: Type.Object({ favourite: item }, { description: 'it was a favourite already' }),
      201: Type.Object({ favourite: item }, { description: 'it is a favourite now' }),
    },
    errors: [platformErrors.not_found, preferencesErrors.favourites_full],
  };
  const remove = {
    tags,
    operationId: `removeFavourite${kind}`,
    summary: `Remove ${one} from the favourites (idempotent)`,
    description: 'Answers 204 whether or not it was a favourite: afterwards it is not.',
    params,
    response: { 204: Type.Null({ description: 'it is not a favourite' }) },
  };
  return { put, remove };
}

export const eventFavouriteSchemas = favouriteSchemas('Event', Type.Object({ eventId: CatalogId }), FavouriteEvent);
export const competitionFavouriteSchemas = favouriteSchemas(
  'Competition',
  Type.Object({ competitionId: CatalogId }),
  FavouriteCompetition,
);

const QuickStakes = Type.Array(Type.Integer({ minimum: 1, maximum: MAX_QUICK_STAKE }), {
  minItems: 1,
  maxItems: MAX_QUICK_STAKES,
  uniqueItems: true,
  description: 'amounts in minor units of the tenant currency, in the order the buttons show them',
});
const fields = {
  oddsFormat: Nullable(Type.Enum(ODDS_FORMATS), {
    description: "null: not chosen, the app follows the casino's oddsFormat mount option or the locale's default",
  }),
  acceptOddsChanges: Type.Enum(ODDS_CHANGE_ACCEPTANCE, {
    description:
      'the acceptOddsChanges of the slips the app sends (POST /api/v1/bets): none, higher (better odds only; ' +
      'until the player chooses) or any',
  }),
  quickStakes: Nullable(QuickStakes, { description: "null: not chosen, the app's own amounts" }),
};
const PlayerSettings = Type.Object(fields);
export type PlayerSettings = Static<typeof PlayerSettings>;

export const SettingsChange = Type.Object(
  {
    oddsFormat: Type.Optional(fields.oddsFormat),
    acceptOddsChanges: Type.Optional(fields.acceptOddsChanges),
    quickStakes: Type.Optional(fields.quickStakes),
  },
  { additionalProperties: false },
);
export type SettingsChange = Static<typeof SettingsChange>;

const settingsTags = ['player: settings'];

export const getSettingsSchema = {
  tags: settingsTags,
  operationId: 'getPlayerSettings',
  summary: "The player's settings, kept on the server across devices and launches",
  description: 'A player who never changed a setting gets the defaults: null, higher, null.',
  response: { 200: Type.Object({ settings: PlayerSettings }) },
};

export const updateSettingsSchema = {
  tags: settingsTags,
  operationId: 'updatePlayerSettings',
  summary: 'Change some of the settings; the others keep their value',
  description:
    'Each field given is set, each field left out is kept (null sets oddsFormat or quickStakes back to the ' +
    "app's default; acceptOddsChanges has no null, its default is higher). Answers with every setting.",
  body: SettingsChange,
  response: { 200: Type.Object({ settings: PlayerSettings }) },
};
