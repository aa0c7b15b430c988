import type { ApiResponse } from '../../../api.ts';
import { count, money } from '../../../format.ts';
import { t } from '../../../messages.ts';

export type Preview = ApiResponse<'previewSettleMarket'>;

/** The dry run's answer: the bets it touches, by result, and the money owed per currency. */
export function PreviewSummary(props: { preview: Preview }) {
  const { preview } = props;
  return (
    <div class="preview" role="status">
      <p class="muted">{t.trading.previewIntro}</p>
      {!preview.resultsChanged && <p class="notice">{t.trading.previewNothing}</p>}
      <p>
        <strong>{t.trading.previewBets(preview.bets, count(preview.bets))}</strong>
      </p>
      <h3>{t.trading.previewResult}</h3>
      <ul>
        {Object.entries(preview.byResult)
          .filter(([, value]) => value > 0)
          .map(([result, value]) => (
            <li key={result}>
              {t.trading.results[result]}: {count(value)}
            </li>
          ))}
      </ul>
      <h3>{t.trading.previewOwed}</h3>
      {preview.owed.length === 0 ? (
        <p>{t.trading.noMoney}</p>
      ) : (
        <ul>
          {preview.owed.map((owed) => (
            <li key={owed.currency}>
              {t.trading.credits(
                owed.credits.count,
                count(owed.credits.count),
                money(owed.credits.amount, owed.currency),
              )}
              {owed.debits.count > 0 &&
                ` · ${t.trading.debits(owed.debits.count, count(owed.debits.count), money(owed.debits.amount, owed.currency))}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
