import { useEffect, useState } from 'preact/hooks';
import { PageHeader, TabPanel, Tabs } from '../components/common.tsx';
import { Icon } from '../components/icons.tsx';
import { t } from '../i18n/index.ts';
import { setPageTitle } from '../router.ts';
import { requireLogin, sessionStore } from '../session.ts';
import { useStore } from '../store.ts';
import { BetList } from './BetList.tsx';
import './MyBets.css';

/** My Bets (/my-bets): open and settled bets, what is still owed, cash-out. Anonymous players are sent to log in. */
export function MyBetsPage() {
  const session = useStore(sessionStore);
  const [tab, setTab] = useState<'open' | 'settled'>('open');
  useEffect(() => setPageTitle(t('titleMyBets')));

  if (!session) {
    return (
      <div class="page">
        <PageHeader title={t('myBets')} />
        <section class="card logged-out">
          <Icon name="bets" size={40} />
          <h2>{t('logInForBets')}</h2>
          <p class="muted">{t('logInForBetsHint')}</p>
          <button type="button" class="btn primary" onClick={() => requireLogin('my_bets')}>
            {t('logIn')}
          </button>
        </section>
      </div>
    );
  }
  return (
    <div class="page">
      <PageHeader title={t('myBets')} />
      <Tabs
        label={t('myBets')}
        idPrefix="bets"
        tabs={[
          { id: 'open', label: t('open') },
          { id: 'settled', label: t('settled') },
        ]}
        current={tab}
        onChange={setTab}
      />
      <TabPanel idPrefix="bets" current={tab}>
        <BetList key={`${tab}:${session.player.id}`} status={tab} />
      </TabPanel>
    </div>
  );
}
