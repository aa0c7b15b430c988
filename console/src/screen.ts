import type { JSX } from 'preact';

/** A screen of an area: its path pattern under /admin, and what it renders with the path's named parts. */
export interface Screen {
  pattern: string;
  render: (params: Record<string, string>) => JSX.Element;
}
