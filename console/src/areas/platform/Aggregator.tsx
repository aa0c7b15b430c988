import { call } from '../../api.ts';
import { useLoad } from '../../ui/load.ts';
import { Failure, Loading, Page } from '../../ui/ui.tsx';
import { AuthorizationForm } from './aggregator/AuthorizationForm.tsx';
import { Keys } from './aggregator/Keys.tsx';
import { AuthorizationBadge } from './Aggregators.tsx';

/** An aggregator: the policy it is authorized under, and its API keys. */
export function AggregatorScreen(props: { id: string }) {
  const loaded = useLoad(
    (signal) => call('getAggregator', 'GET', `/api/v1/admin/aggregators/${encodeURIComponent(props.id)}`, { signal }),
    props.id,
  );
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const aggregator = loaded.data.aggregator;
  return (
    <Page title={aggregator.name} actions={<AuthorizationBadge aggregator={aggregator} />}>
      <AuthorizationForm aggregator={aggregator} saved={loaded.reload} />
      <Keys aggregator={aggregator} changed={loaded.reload} />
    </Page>
  );
}
