/**
 * How the demo plays a match, sport by sport, in real time: football's two halves of 45 minutes and stoppage time
 * with a 15-minute half-time, clock counting up; basketball's four quarters (12 or 10 minutes) counting down, with
 * 2-minute pauses between quarters and overtime, and a 15-minute half-time; tennis best of three sets, the score the
 * sets won, with no clock.
 *
 * Every chance is a keyed draw (random.ts keyedRandom): whether a goal falls in minute 63 is the same answer
 * however often it is asked, so playing a match from its last change to now gives the same match whether the
 * simulator ticks every second or every minute, or stopped for a while.
 */
import type { LivePeriod } from '../catalog/tables.ts';
import type { MatchProfile } from './demo-leagues.ts';
import { keyedRandom } from './random.ts';

interface MatchClock {
  seconds: number;
  running: boolean;
  direction: 'up' | 'down';
  /** When the reading was `seconds` (ms). */
  setAt: number;
}

export interface MatchState {
  status: 'scheduled' | 'live' | 'finished';
  period: LivePeriod | null;
  score: { home: number; away: number };
  clock: MatchClock | null;
  /** Football and basketball: until when the match has been played (ms). Tennis: when the current set began. */
  at: number;
}

type Draw = (key: string) => number;

const MINUTE = 60_000;
const HALF_TIME = 15 * MINUTE;
const QUARTER_PAUSE = 2 * MINUTE;
const OVERTIME_SECONDS = 300;
/** Football: the minutes a match is played on average, stoppage time included, that its expected goals are for. */
export const FOOTBALL_MINUTES = 96;
/** Basketball is played in steps of 20 seconds of the clock, in each of which either side may score. */
export const BASKETBALL_STEP = 20;
/** A basket: 1 point (10 %), 2 (60 %) or 3 (30 %). */
const BASKETS = [
  { points: 1, chance: 0.1 },
  { points: 2, chance: 0.6 },
  { points: 3, chance: 0.3 },
];
const MEAN_BASKET = BASKETS.reduce((sum, basket) => sum + basket.points * basket.chance, 0);
const MEAN_BASKET_SQUARE = BASKETS.reduce((sum, basket) => sum + basket.points ** 2 * basket.chance, 0);

/** A clock's reading at `t` (seconds, fractional): a running one moves on from `setAt`, never below 0. */
export function clockReading(clock: MatchClock, t: number): number {
  if (!clock.running) return clock.seconds;
  const moved = (t - clock.setAt) / 1000;
  return clock.direction === 'up' ? clock.seconds + moved : Math.max(0, clock.seconds - moved);
}

/** The keyed draws of one match: named by the event and its start, so a rescheduled match plays anew. */
export function matchDraws(eventId: string, startsAt: Date): Draw {
  return keyedRandom(`${eventId}|${startsAt.getTime()}`);
}

/** The event's state as the feed sets it at `now` (the server stamps the clock's setAt). */
export function eventState(state: MatchState, now: number) {
  const clock = state.clock;
  return {
    status: state.status === 'finished' ? ('finished' as const) : ('live' as const),
    score: state.score,
    period: state.period,
    ...(clock
      ? {
          clock: {
            seconds: Math.floor(clockReading(clock, now)),
            running: clock.running,
            direction: clock.direction,
          },
        }
      : {}),
  };
}

/** The match as it starts at `at`: 0-0, first half, first quarter or first set. */
export function kickOff(profile: MatchProfile, at: number): MatchState {
  const start = { status: 'live', score: { home: 0, away: 0 }, at } as const;
  switch (profile.kind) {
    case 'football':
      return { ...start, period: 'first_half', clock: { seconds: 0, running: true, direction: 'up', setAt: at } };
    case 'basketball':
      return { ...start, period: 'quarter_1', clock: running(profile.quarterSeconds, at) };
    case 'tennis':
      return { ...start, period: 'set_1', clock: null };
  }
}

/**
 * The match played from its state to `to`. `breaks` counts the moments a trader suspends the markets for: goals
 * and sets won (a basket is too common to stop the book for). A state the sport's rules do not know (a period of
 * another sport, a clock a trader stopped mid-period) is left as it is.
 */
export function play(
  profile: MatchProfile,
  state: MatchState,
  to: number,
  draw: Draw,
): { state: MatchState; breaks: number } {
  let current = state;
  let breaks = 0;
  // Each pass plays to `to` or to the end of a period (then the next pass plays on); a finished match stops.
  for (;;) {
    const next = current.status === 'live' ? step(profile, current, to, draw) : undefined;
    if (!next) return { state: current, breaks };
    breaks += next.breaks;
    current = next.state;
    if (!next.periodEnded) return { state: current, breaks };
  }
}

interface Step {
  state: MatchState;
  breaks: number;
  /** Whether a period (or a pause) ended before `to`: the rest is played from the new state. */
  periodEnded: boolean;
}

function step(profile: MatchProfile, state: MatchState, to: number, draw: Draw): Step | undefined {
  switch (profile.kind) {
    case 'football':
      return footballStep(profile.goals, state, to, draw);
    case 'basketball':
      return basketballStep(profile, state, to, draw);
    case 'tennis':
      return tennisStep(profile.setWin, state, to, draw);
  }
}

const running = (seconds: number, at: number): MatchClock => ({ seconds, running: true, direction: 'down', setAt: at });
const stopped = (clock: MatchClock, seconds: number, at: number): MatchClock => ({
  ...clock,
  seconds,
  running: false,
  setAt: at,
});

// ---- football ----

/** Stoppage time: 1-4 minutes after the first half, 2-6 after the second, and some seconds. */
function footballHalfEnd(half: 1 | 2, draw: Draw): number {
  const added = half === 1 ? 1 + Math.floor(draw('added-1') * 4) : 2 + Math.floor(draw('added-2') * 5);
  return (half * 45 + added) * 60 + Math.floor(draw(`added-${half}-seconds`) * 50);
}

function footballStep(
  goals: { home: number; away: number },
  state: MatchState,
  to: number,
  draw: Draw,
): Step | undefined {
  const clock = state.clock;
  if (!clock) return undefined;
  if (state.period === 'half_time' && !clock.running) {
    const resume = clock.setAt + HALF_TIME;
    if (to < resume) return { state, breaks: 0, periodEnded: false };
    const secondHalf: MatchClock = { seconds: 45 * 60, running: true, direction: 'up', setAt: resume };
    return { state: { ...state, period: 'second_half', clock: secondHalf, at: resume }, breaks: 0, periodEnded: true };
  }
  if ((state.period !== 'first_half' && state.period !== 'second_half') || !clock.running) return undefined;
  const half = state.period === 'first_half' ? 1 : 2;
  const end = footballHalfEnd(half, draw);
  const from = clockReading(clock, state.at);
  const until = Math.min(end, clockReading(clock, to));
  const score = { ...state.score };
  let scored = 0;
  // Minute k is played when the clock passes (k + 1) minutes; in it each side scores at its rate.
  for (let minute = Math.floor(from / 60); (minute + 1) * 60 <= until; minute++) {
    if ((minute + 1) * 60 <= from) continue;
    for (const side of ['home', 'away'] as const) {
      if (draw(`goal-${minute}-${side}`) < 1 - Math.exp(-goals[side] / FOOTBALL_MINUTES)) {
        score[side]++;
        scored++;
      }
    }
  }
  if (until < end) return { state: { ...state, score, at: to }, breaks: scored, periodEnded: false };
  const endedAt = clock.setAt + (end - clock.seconds) * 1000;
  const next: MatchState =
    half === 1
      ? { ...state, score, period: 'half_time', clock: stopped(clock, 45 * 60, endedAt), at: endedAt }
      : { ...state, score, status: 'finished', clock: stopped(clock, end, endedAt), at: endedAt };
  return { state: next, breaks: scored, periodEnded: true };
}

// ---- basketball ----

/** Expected points of a side in one step of the clock, and the chance it scores in it. */
export function basketballPace(profile: Extract<MatchProfile, { kind: 'basketball' }>, side: 'home' | 'away') {
  const steps = (4 * profile.quarterSeconds) / BASKETBALL_STEP;
  const mean = profile.points[side] / steps;
  const chance = mean / MEAN_BASKET;
  return { mean, chance, variance: chance * MEAN_BASKET_SQUARE - mean ** 2 };
}

const NEXT_QUARTER: Partial<Record<LivePeriod, LivePeriod>> = {
  quarter_1: 'quarter_2',
  half_time: 'quarter_3',
  quarter_3: 'quarter_4',
  quarter_4: 'overtime',
  overtime: 'overtime',
};

function basketballStep(
  profile: Extract<MatchProfile, { kind: 'basketball' }>,
  state: MatchState,
  to: number,
  draw: Draw,
): Step | undefined {
  const clock = state.clock;
  if (!clock || !state.period) return undefined;
  const length = state.period === 'overtime' ? OVERTIME_SECONDS : profile.quarterSeconds;
  if (!clock.running) {
    // A pause: half-time, or a quarter's clock stopped at 0 until the next starts (a clock a trader stopped with
    // time left is the trader's).
    const next = NEXT_QUARTER[state.period];
    if (!next || (state.period !== 'half_time' && clock.seconds > 0)) return undefined;
    const resume = clock.setAt + (state.period === 'half_time' ? HALF_TIME : QUARTER_PAUSE);
    if (to < resume) return { state, breaks: 0, periodEnded: false };
    const seconds = next === 'overtime' ? OVERTIME_SECONDS : profile.quarterSeconds;
    return {
      state: { ...state, period: next, clock: running(seconds, resume), at: resume },
      breaks: 0,
      periodEnded: true,
    };
  }
  if (!state.period.startsWith('quarter_') && state.period !== 'overtime') return undefined;
  const from = length - clockReading(clock, state.at);
  const until = length - clockReading(clock, to);
  const score = { ...state.score };
  // Overtimes repeat: the points before one tell them apart.
  const name = state.period === 'overtime' ? `overtime-${state.score.home + state.score.away}` : state.period;
  for (let k = Math.floor(from / BASKETBALL_STEP); (k + 1) * BASKETBALL_STEP <= until; k++) {
    if ((k + 1) * BASKETBALL_STEP <= from) continue;
    for (const side of ['home', 'away'] as const) {
      if (draw(`${name}-${k}-${side}`) >= basketballPace(profile, side).chance) continue;
      const roll = draw(`${name}-${k}-${side}-points`);
      let sum = 0;
      score[side] += BASKETS.find((basket) => (sum += basket.chance) > roll)?.points ?? 2;
    }
  }
  if (until < length) return { state: { ...state, score, at: to }, breaks: 0, periodEnded: false };
  const endedAt = clock.setAt + clock.seconds * 1000;
  const decided = (state.period === 'quarter_4' || state.period === 'overtime') && score.home !== score.away;
  const next: MatchState = decided
    ? { ...state, score, status: 'finished', clock: stopped(clock, 0, endedAt), at: endedAt }
    : state.period === 'quarter_2'
      ? { ...state, score, period: 'half_time', clock: stopped(clock, 0, endedAt), at: endedAt }
      : { ...state, score, clock: stopped(clock, 0, endedAt), at: endedAt };
  return { state: next, breaks: 0, periodEnded: true };
}

// ---- tennis ----

/** A set lasts 30 to 65 minutes, evenly: past minute 30, the chance that minute m ends it is 1 / (66 - m). */
const SET_MINUTES = { least: 30, most: 65 };

function tennisStep(setWin: number, state: MatchState, to: number, draw: Draw): Step | undefined {
  const set = /^set_([1-3])$/.exec(state.period ?? '')?.[1];
  if (!set) return undefined;
  const played = Math.floor((to - state.at) / MINUTE);
  for (let minute = SET_MINUTES.least; minute <= Math.min(played, SET_MINUTES.most); minute++) {
    if (draw(`set-${set}-end-${minute}`) >= 1 / (SET_MINUTES.most + 1 - minute)) continue;
    const winner = draw(`set-${set}-winner`) < setWin ? 'home' : 'away';
    const score = { ...state.score, [winner]: state.score[winner] + 1 };
    const endedAt = state.at + minute * MINUTE;
    const finished = score[winner] === 2;
    const period = finished ? state.period : (`set_${Number(set) + 1}` as LivePeriod);
    const status = finished ? 'finished' : 'live';
    return { state: { ...state, score, status, period, at: endedAt }, breaks: 1, periodEnded: true };
  }
  return { state, breaks: 0, periodEnded: false };
}
