/**
 * The slip's heading, focusable by script only: where the keyboard stays when the control it pressed leaves the slip
 * (a removed selection, the receipt closed), rather than falling to the body and, on a phone, out of the sheet.
 */
export const slipTitle = () => document.getElementById('slip-title');
