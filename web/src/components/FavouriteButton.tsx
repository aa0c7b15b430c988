import { favouriteIds, toggleFavourite, type FavouriteKind } from '../favourites.ts';
import { t } from '../i18n/index.ts';
import { useStore } from '../store.ts';
import { Icon } from './icons.tsx';

/** The star beside an event's or a competition's name: filled when it is a favourite; its name says what a tap does. */
export function FavouriteButton({ kind, id, name }: { kind: FavouriteKind; id: string; name: string }) {
  const marked = useStore(favouriteIds)[kind].has(id);
  return (
    <button
      type="button"
      class={`icon-btn favourite${marked ? ' marked' : ''}`}
      aria-label={t(marked ? 'removeFavourite' : 'addFavourite', { name })}
      onClick={() => void toggleFavourite(kind, id)}
    >
      <Icon name={marked ? 'star' : 'starOutline'} />
    </button>
  );
}
