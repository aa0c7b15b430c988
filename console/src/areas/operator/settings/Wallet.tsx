import { dateTime } from '../../../format.ts';
import { t } from '../../../messages.ts';
import type { Tenant } from '../tenant.ts';
import { Section } from './section.tsx';

/** The tenant's wallet (URL, mode, currency): shown here, not changed, and whether it can still change. */
export function Wallet(props: { tenant: Tenant }) {
  const { tenant } = props;
  return (
    <Section id="wallet-title" title={t.settings.wallet}>
      <dl class="facts">
        <dt>{t.settings.walletUrl}</dt>
        <dd>
          <code>{tenant.walletUrl}</code>
        </dd>
        <dt>{t.settings.walletMode}</dt>
        <dd>{tenant.walletMode}</dd>
        <dt>{t.settings.currency}</dt>
        <dd>{tenant.currency}</dd>
      </dl>
      <p class="notice">
        {tenant.firstFinancialAt
          ? t.settings.identityLocked(dateTime(tenant.firstFinancialAt))
          : t.settings.identityOpen}
      </p>
    </Section>
  );
}
