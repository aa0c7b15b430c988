import type { ComponentChildren } from 'preact';
import { t } from '../messages.ts';
import { place, setQuery } from '../router.ts';
import { Empty, Failure, Loading } from './ui.tsx';
import type { Loaded } from './load.ts';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** A number or money: right-aligned, tabular digits. */
  numeric?: boolean;
  /** The time the list is ordered by: its header turns the order between newest and oldest first. */
  orders?: boolean;
}

/**
 * A page of a server-paged list: the rows the API gave, a caption for screen readers, designed empty, loading
 * and failed states, and the pager (the cursor lives in the address, so a page can be linked).
 */
export function Table<Row>(props: {
  caption: string;
  columns: Column<Row>[];
  loaded: Loaded<{ rows: Row[]; nextCursor?: string }> & { reload: () => void };
  rowKey: (row: Row) => string;
  empty: ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const { rows, nextCursor } = loaded.data;
  if (rows.length === 0 && !place.get().query.get('cursor')) return <Empty>{props.empty}</Empty>;
  const ordering = props.columns.find((column) => column.orders);
  const oldest = place.get().query.get('order') === 'oldest';
  return (
    <div class="table-wrap" aria-busy={loaded.state === 'loading'}>
      {loaded.state === 'failed' && <Failure error={loaded.error} retry={loaded.reload} />}
      {ordering && (
        <div class="table-order">
          <OrderButton column={ordering.header} oldest={oldest} />
        </div>
      )}
      <table class="table">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th
                scope="col"
                class={column.numeric ? 'numeric' : undefined}
                key={column.header}
                aria-sort={column.orders ? (oldest ? 'ascending' : 'descending') : undefined}
              >
                {column.orders ? <OrderButton column={column.header} oldest={oldest} /> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((column) => (
                <td class={column.numeric ? 'numeric' : undefined} data-label={column.header} key={column.header}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Pager nextCursor={nextCursor} />
    </div>
  );
}

/** The order a list's address asks for, as the API's `order` parameter (newest first when it names none). */
export const listOrder = (query: URLSearchParams) => (query.get('order') === 'oldest' ? 'oldest' : undefined);

/** Turns the list's order (kept in the address, from the first page) between newest and oldest first. */
function OrderButton(props: { column: string; oldest: boolean }) {
  return (
    <button
      type="button"
      class="sort"
      onClick={() => setQuery({ order: props.oldest ? undefined : 'oldest' })}
      aria-label={t.orderBy(props.column, props.oldest)}
    >
      {props.column} <span aria-hidden="true">{props.oldest ? '↑' : '↓'}</span>
    </button>
  );
}

function Pager(props: { nextCursor: string | undefined }) {
  const { path, query } = place.get();
  const link = (cursor: string | undefined) => {
    const next = new URLSearchParams(query);
    if (cursor) next.set('cursor', cursor);
    else next.delete('cursor');
    const search = next.toString();
    return `/admin${path === '/' ? '' : path}${search ? `?${search}` : ''}`;
  };
  const paged = query.has('cursor');
  if (!paged && !props.nextCursor) return null;
  return (
    <nav class="pager" aria-label={t.pages}>
      {paged && <a href={link(undefined)}>{t.firstPage}</a>}
      {props.nextCursor && (
        <a href={link(props.nextCursor)} rel="next">
          {t.nextPage}
        </a>
      )}
    </nav>
  );
}
