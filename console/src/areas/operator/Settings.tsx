import { t } from '../../messages.ts';
import { useLoad } from '../../ui/load.ts';
import { Failure, Loading, Page } from '../../ui/ui.tsx';
import { Credentials } from './settings/Credentials.tsx';
import { EmbedOrigins } from './settings/EmbedOrigins.tsx';
import { Limits } from './settings/Limits.tsx';
import { Wallet } from './settings/Wallet.tsx';
import { TenantScope } from './TenantScope.tsx';
import { loadTenant } from './tenant.ts';

/** A tenant's settings: where it may be embedded, its wallet, its limits, and its two credentials. */
export function Settings() {
  return (
    <Page title={t.settings.title}>
      <TenantScope>{(tenantId) => <TenantSettings tenantId={tenantId} />}</TenantScope>
    </Page>
  );
}

function TenantSettings(props: { tenantId: string | undefined }) {
  const loaded = useLoad((signal) => loadTenant(props.tenantId, signal), props.tenantId ?? '');
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const tenant = loaded.data;
  return (
    <>
      <EmbedOrigins tenant={tenant} tenantId={props.tenantId} saved={loaded.reload} />
      <Wallet tenant={tenant} />
      <Limits tenant={tenant} tenantId={props.tenantId} saved={loaded.reload} />
      <Credentials tenant={tenant} tenantId={props.tenantId} rotated={loaded.reload} />
    </>
  );
}
