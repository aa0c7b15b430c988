/**
 * Where the keyboard goes when the control it pressed leaves the screen: Place bet gives way to the receipt, Cash out
 * to its confirmation, a row to the page it opens. The browser drops the focus on the body, so Tab would start again
 * at the top of the page, and outside a modal sheet (WCAG 2.4.3). Each such action names the control that carries
 * on instead.
 */

/** Focuses `target` once the action's render is done, if the focus fell to the body meanwhile (not if it is elsewhere). */
export function refocus(target: () => HTMLElement | null | undefined): void {
  setTimeout(() => {
    if (document.activeElement === document.body && document.hasFocus()) target()?.focus();
  });
}

/** The page's heading (focusable by script only): where a new page, or a bet that left the list, leaves the keyboard. */
export const pageHeading = (): HTMLElement | null => document.querySelector<HTMLElement>('#main h1');
