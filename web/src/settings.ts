import { api } from './api.ts';
import { quickStakesStore, setAcceptance, type OddsAcceptance } from './betslip/slip.ts';
import { oddsFormatStore } from './i18n/index.ts';
import { sessionStore } from './session.ts';
import type { OddsFormat } from '../../sdk/protocol.ts';

/**
 * The player's settings, kept by the server so they follow the player to any device: the odds format, which odds
 * changes the slip accepts, and the quick stakes. Read when a session starts; a change the player makes applies at
 * once and is saved (a failed save keeps the change on this device only). Anonymous players' choices stay local.
 */
sessionStore.subscribe((session) => {
  if (!session) {
    oddsFormatStore.set(null);
    quickStakesStore.set(null);
    return;
  }
  api.settings().then(
    ({ settings }) => {
      oddsFormatStore.set(settings.oddsFormat);
      quickStakesStore.set(settings.quickStakes);
      setAcceptance(settings.acceptOddsChanges);
    },
    () => undefined,
  );
});

function save(change: Parameters<typeof api.saveSettings>[0]): void {
  if (sessionStore.get()) api.saveSettings(change).catch(() => undefined);
}

export function chooseOddsFormat(format: OddsFormat | null): void {
  oddsFormatStore.set(format);
  save({ oddsFormat: format });
}

export function chooseAcceptance(acceptance: OddsAcceptance): void {
  setAcceptance(acceptance);
  save({ acceptOddsChanges: acceptance });
}
