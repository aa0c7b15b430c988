import { t } from '../../messages.ts';
import { Badge } from '../../ui/ui.tsx';

/** An event's statuses, as the API names them. */
export const EVENT_STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;

export function EventStatus(props: { status: string }) {
  const tone = props.status === 'live' ? 'good' : props.status === 'cancelled' ? 'bad' : 'neutral';
  return <Badge tone={tone}>{t.trading.statuses[props.status] ?? props.status}</Badge>;
}
