import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchProfile, type MatchProfile } from '../../src/seed/demo-leagues.ts';
import { clockReading, kickOff, matchDraws, play, type MatchState } from '../../src/seed/match-play.ts';
import { matchModel } from '../../src/seed/pricing.ts';

const START = Date.parse('2026-03-01T15:00:00Z');
const MINUTE = 60_000;

/** The match played from kick-off in ticks of `tick` ms until it ends: every state seen, in order. */
function states(profile: MatchProfile, id: string, tick: number, until = 4 * 60 * MINUTE): MatchState[] {
  const draws = matchDraws(id, new Date(START));
  const seen = [kickOff(profile, START)];
  for (let at = START + tick; at <= START + until && seen.at(-1)!.status === 'live'; at += tick)
    seen.push(play(profile, seen.at(-1)!, at, draws).state);
  return seen;
}

const periodsOf = (seen: MatchState[]) =>
  seen.map((state) => state.period).filter((period, index, all) => period !== all[index - 1]);

const football = matchProfile('soccer', 'premier-league', 'Arsenal', 'Manchester City')!;
const nba = matchProfile('basketball', 'nba', 'Boston Celtics', 'Denver Nuggets')!;
const nbb = matchProfile('basketball', 'nbb', 'Franca', 'Minas')!;
const tennis = matchProfile('tennis', 'atp', 'C. Alcaraz', 'J. Sinner')!;

describe('match play', () => {
  it('plays the same match whatever the tick rate', () => {
    for (const [profile, id] of [
      [football, 'ev-f'],
      [nba, 'ev-b'],
      [tennis, 'ev-t'],
    ] as const) {
      const everyMinute = states(profile, id, MINUTE).at(-1)!;
      const everySevenSeconds = states(profile, id, 7_000).at(-1)!;
      const once = play(profile, kickOff(profile, START), START + 4 * 60 * MINUTE, matchDraws(id, new Date(START)));
      assert.deepEqual(everySevenSeconds.score, everyMinute.score, id);
      assert.deepEqual(once.state.score, everyMinute.score, id);
      assert.equal(once.state.status, 'finished', id);
    }
  });

  it('football: two halves of 45 minutes and stoppage time, 15 minutes of half-time, a clock counting up', () => {
    const seen = states(football, 'ev-football', MINUTE);
    assert.deepEqual(periodsOf(seen), ['first_half', 'half_time', 'second_half']);
    const halfTime = seen.find((state) => state.period === 'half_time')!;
    assert.deepEqual([halfTime.clock!.seconds, halfTime.clock!.running], [45 * 60, false]);
    const lastOfFirstHalf = seen[seen.indexOf(halfTime) - 1]!;
    const reading = clockReading(lastOfFirstHalf.clock!, lastOfFirstHalf.at);
    assert.ok(reading >= 45 * 60 && reading < 50 * 60, `first half ends in stoppage time: ${reading}`);
    const secondHalf = seen.find((state) => state.period === 'second_half')!;
    assert.equal(secondHalf.clock!.setAt - halfTime.clock!.setAt, 15 * MINUTE);
    assert.deepEqual([secondHalf.clock!.seconds, secondHalf.clock!.direction], [45 * 60, 'up']);
    const end = seen.at(-1)!;
    assert.equal(end.status, 'finished');
    assert.ok(end.clock!.seconds >= 92 * 60 && end.clock!.seconds < 97 * 60, `full time: ${end.clock!.seconds}`);
    assert.equal(end.clock!.running, false);
  });

  it('football: about 2.7 goals a match, never a basketball score', () => {
    let goals = 0;
    for (let match = 0; match < 200; match++) {
      const end = play(
        football,
        kickOff(football, START),
        START + 3 * 60 * MINUTE,
        matchDraws(`ev-${match}`, new Date(START)),
      );
      goals += end.state.score.home + end.state.score.away;
      assert.ok(end.state.score.home + end.state.score.away <= 10);
    }
    assert.ok(goals / 200 > 2.3 && goals / 200 < 3.6, `goals a match: ${goals / 200}`);
  });

  it('basketball: four quarters counting down (12 minutes in the NBA, 10 elsewhere), half-time, a finish without a tie', () => {
    for (const [profile, quarter, total] of [
      [nba, 720, [170, 290]],
      [nbb, 600, [110, 220]],
    ] as const) {
      const seen = states(profile, 'ev-basketball', 30_000);
      const periods = periodsOf(seen);
      assert.deepEqual(periods.slice(0, 5), ['quarter_1', 'quarter_2', 'half_time', 'quarter_3', 'quarter_4']);
      assert.ok(periods.slice(5).every((period) => period === 'overtime'));
      const first = seen[1]!;
      assert.deepEqual([first.clock!.direction, first.clock!.running], ['down', true]);
      assert.equal(clockReading(first.clock!, first.at), quarter - 30);
      const end = seen.at(-1)!;
      assert.equal(end.status, 'finished');
      assert.notEqual(end.score.home, end.score.away);
      const points = end.score.home + end.score.away;
      assert.ok(points >= total[0] && points <= total[1], `${quarter}: ${points} points`);
    }
  });

  it('basketball: about 100 points by half-time in the NBA', () => {
    const halfTime = states(nba, 'ev-nba-half', MINUTE).find((state) => state.period === 'half_time')!;
    const points = halfTime.score.home + halfTime.score.away;
    assert.ok(points > 80 && points < 135, `${points} at half-time`);
  });

  it('tennis: best of three sets, the score the sets won, no clock', () => {
    for (let match = 0; match < 30; match++) {
      const seen = states(tennis, `ev-tennis-${match}`, 5 * MINUTE);
      for (const state of seen) {
        assert.equal(state.clock, null);
        assert.ok(state.score.home <= 2 && state.score.away <= 2);
        if (state.status === 'live') assert.equal(state.period, `set_${state.score.home + state.score.away + 1}`);
      }
      const end = seen.at(-1)!;
      assert.equal(end.status, 'finished');
      assert.equal(Math.max(end.score.home, end.score.away), 2);
      const minutes = (end.at - START) / MINUTE;
      assert.ok(minutes >= 60 && minutes <= 195, `${minutes} minutes`);
    }
  });

  it('leaves alone a clock a trader stopped mid-period, and a period of another sport', () => {
    const stopped: MatchState = {
      status: 'live',
      period: 'second_half',
      score: { home: 1, away: 0 },
      clock: { seconds: 3_000, running: false, direction: 'up', setAt: START },
      at: START,
    };
    assert.equal(play(football, stopped, START + 60 * MINUTE, matchDraws('ev', new Date(START))).state, stopped);
    const quarter = { ...stopped, period: 'quarter_2' as const };
    assert.equal(play(football, quarter, START + 60 * MINUTE, matchDraws('ev', new Date(START))).state, quarter);
  });
});

describe('in-play prices', () => {
  const chances = (state: MatchState, at: number) =>
    matchModel(football, state, at)!.chances('match_result', null, ['home', 'draw', 'away'])!;
  const live = (score: { home: number; away: number }, minute: number): MatchState => ({
    status: 'live',
    period: 'second_half',
    score,
    clock: { seconds: minute * 60, running: true, direction: 'up', setAt: START },
    at: START,
  });

  it('move toward the side that scores, and toward the draw as time runs out at level', () => {
    const level = chances(live({ home: 0, away: 0 }, 60), START);
    const ahead = chances(live({ home: 1, away: 0 }, 60), START);
    assert.ok(ahead.get('home')! > level.get('home')! + 0.2);
    const later = chances(live({ home: 0, away: 0 }, 85), START);
    assert.ok(later.get('draw')! > level.get('draw')!);
    const sum = [...ahead.values()].reduce((total, value) => total + value, 0);
    assert.ok(Math.abs(sum - 1) < 1e-6);
  });

  it('close a market once decided or its part of the match is over', () => {
    const model = matchModel(football, live({ home: 1, away: 1 }, 60), START)!;
    assert.equal(model.chances('totals', 1.5, ['over', 'under']), null);
    assert.equal(model.chances('both_teams_to_score', null, ['yes', 'no']), null);
    assert.equal(model.chances('half_time_result', null, ['home', 'draw', 'away']), null);
    assert.ok(model.chances('totals', 2.5, ['over', 'under']));
    assert.equal(model.chances('set_betting', null, ['2-0', '0-2']), undefined, 'not a football market');
  });
});
