import { useState } from 'preact/hooks';
import type { ApiResponse } from '../../../api.ts';
import { dateTime } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Table } from '../../../ui/Table.tsx';
import { Badge } from '../../../ui/ui.tsx';
import { IssueKey } from './IssueKey.tsx';
import { RevokeKey } from './RevokeKey.tsx';

type Aggregator = ApiResponse<'getAggregator'>['aggregator'];
type Key = Aggregator['keys'][number];

/** The aggregator's API keys (scopes, expiry, last use): issued once it has a policy, revoked one by one. */
export function Keys(props: { aggregator: Aggregator; changed: () => void }) {
  const [issuing, setIssuing] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const rows = props.aggregator.keys;
  return (
    <section class="panel" aria-labelledby="keys-title">
      <div class="panel-head">
        <h2 id="keys-title">{t.aggregator.keys}</h2>
        <button
          type="button"
          class="button button-primary"
          disabled={!props.aggregator.authorization}
          aria-describedby={props.aggregator.authorization ? undefined : 'keys-need-authorization'}
          onClick={() => setIssuing(true)}
        >
          {t.aggregator.issueKey}
        </button>
      </div>
      {!props.aggregator.authorization && (
        <p class="muted" id="keys-need-authorization">
          {t.aggregator.issueNeedsAuthorization}
        </p>
      )}
      <Table<Key>
        caption={t.aggregator.keysCaption}
        loaded={{ state: 'ready', data: { rows }, reload: props.changed }}
        rowKey={(key) => key.keyId}
        empty={t.aggregator.keysEmpty}
        columns={[
          { header: t.aggregator.keyId, cell: (key) => <code>{key.keyId}</code> },
          { header: t.aggregator.scopes, cell: (key) => key.scopes.join(', ') },
          { header: t.aggregator.expires, cell: (key) => dateTime(key.expiresAt) },
          {
            header: t.aggregator.lastUsed,
            cell: (key) => {
              return key.lastUsedAt ? dateTime(key.lastUsedAt) : t.aggregator.never;
            },
          },
          {
            header: t.aggregators.status,
            cell: (key) =>
              key.revokedAt ? (
                <Badge tone="bad">{t.aggregator.revoked}</Badge>
              ) : (
                <button
                  type="button"
                  class="button button-danger button-small"
                  aria-label={`${t.aggregator.revoke} ${key.keyId}`}
                  onClick={() => setRevoking(key)}
                >
                  {t.aggregator.revoke}
                </button>
              ),
          },
        ]}
      />
      {issuing && (
        <IssueKey
          aggregatorId={props.aggregator.id}
          onClose={() => {
            setIssuing(false);
            props.changed();
          }}
        />
      )}
      {revoking && (
        <RevokeKey
          aggregatorId={props.aggregator.id}
          keyId={revoking.keyId}
          onClose={() => {
            setRevoking(null);
            props.changed();
          }}
        />
      )}
    </section>
  );
}
