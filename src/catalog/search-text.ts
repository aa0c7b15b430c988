/**
 * Search that ignores case and accents the same way on PGlite and PostgreSQL, with no extension: the names are
 * folded by translate() with the table below (accented Latin letters to their base letter, combining marks
 * dropped) and compared with ILIKE; the searched text is folded the same way here.
 */

const COMBINING_MARKS = /\p{M}/gu;

function baseLetter(character: string): string {
  return character.normalize('NFD').replace(COMBINING_MARKS, '');
}

function foldingTable(): { accented: string; plain: string } {
  let accented = '';
  let plain = '';
  // Latin-1 Supplement to Latin Extended-B: every precomposed letter with a single base letter (Ê -> E, ç -> c).
  for (let code = 0xc0; code <= 0x24f; code++) {
    const character = String.fromCodePoint(code);
    const base = baseLetter(character);
    if (base.length === 1 && base !== character) {
      accented += character;
      plain += base;
    }
  }
  // Combining marks come last with nothing to map to: translate() drops them (text stored decomposed).
  for (let code = 0x300; code <= 0x36f; code++) accented += String.fromCodePoint(code);
  return { accented, plain };
}

/** translate()'s two arguments: what to replace, and with what (shorter: the rest is dropped). */
export const FOLDING = foldingTable();

/** A LIKE pattern that finds `text` anywhere: its own wildcards (and the escape character) match themselves. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The words of a player's search, accents removed, each a pattern that finds it anywhere in a folded name. */
export function searchPatterns(text: string): string[] {
  const words = baseLetter(text).trim().split(/\s+/).filter(Boolean);
  return [...new Set(words)].map(containing);
}
