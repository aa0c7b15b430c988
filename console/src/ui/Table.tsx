import type { ComponentChildren } from 'preact';
import { t } from '../messages.ts';
import { place } from '../router.ts';
import { Empty, Failure, Loading } from './ui.tsx';
import type { Loaded } from './load.ts';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ComponentChildren;
  /** A number or money: right-aligned, tabular digits. */
  numeric?: boolean;
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
  return (
    <div class="table-wrap" aria-busy={loaded.state === 'loading'}>
      {loaded.state === 'failed' && <Failure error={loaded.error} retry={loaded.reload} />}
      <table class="table">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col" class={column.numeric ? 'numeric' : undefined} key={column.header}>
                {column.header}
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
