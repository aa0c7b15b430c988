import { join } from 'node:path';

/** Where `npm run build` writes the iframe app and the SDK; neither is committed. */
const ROOT = join(import.meta.dirname, '..', '..');
export const APP_DIR = join(ROOT, 'web', 'dist');
export const APP_ASSETS_DIR = join(APP_DIR, 'assets');
export const SDK_FILE = join(ROOT, 'sdk', 'dist', 'v1.js');
export const BUILD_HINT = 'Build the iframe app and the SDK with `npm run build` (npm start and npm test build them).';
