/**
 * Builds the SDK: `sdk/dist/v1.js` (served at /embed/v1.js: IIFE, minified, global object `Bookmaker`) and the ES
 * module package in `sdk/dist/esm` (index.js and protocol.js with their TypeScript declarations, made by tsc).
 * Prints raw, minified and gzip sizes; fails when v1.js is over the contract's 5 KB minified.
 *
 *   node sdk/build.ts            or, from the project's build:   await buildSdk()
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const SDK = import.meta.dirname;
const DIST = join(SDK, 'dist');
const ESM = join(DIST, 'esm');
/** The contract's figure for /embed/v1.js, minified. */
export const SDK_MAX_MINIFIED = 5120;
/** What we aim at for /embed/v1.js, gzip. */
export const SDK_AIM_GZIP = 2048;
/** Browsers the embed script runs in. */
const BROWSER_TARGET = 'es2019';

export interface SdkArtefact {
  /** path relative to the project */
  file: string;
  /** bytes of the unminified bundle */
  raw: number;
  /** bytes minified */
  minified: number;
  /** bytes of the minified bundle gzipped */
  gzip: number;
}

export interface BuildSdkOptions {
  /**
   * Emit the ES module package's declarations with tsc (default true). False (the browser tests) skips tsc and leaves
   * any declarations already in sdk/dist/esm; true starts from an empty sdk/dist.
   */
  types?: boolean;
  /** Where the size lines go (default console.log). */
  log?: (line: string) => void;
}

/** The ES module package keeps protocol.ts its own module: index.js imports it instead of inlining it. */
const protocolAsModule: Plugin = {
  name: 'protocol-as-module',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/protocol\.ts$/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: './protocol.js', external: true },
    );
  },
};

/** Bundles in memory twice (plain and minified); returns each output file's two texts. */
async function bundle(options: BuildOptions): Promise<Map<string, { raw: string; minified: string }>> {
  const [plain, small] = await Promise.all(
    [false, true].map((minify) =>
      build({ ...options, bundle: true, minify, write: false, logLevel: 'silent', legalComments: 'none' }),
    ),
  );
  const outputs = new Map<string, { raw: string; minified: string }>();
  plain!.outputFiles.forEach((file, i) =>
    outputs.set(file.path, { raw: file.text, minified: small!.outputFiles[i]!.text }),
  );
  return outputs;
}

function measure(path: string, raw: string, minified: string): SdkArtefact {
  return {
    file: relative(join(SDK, '..'), path),
    raw: Buffer.byteLength(raw),
    minified: Buffer.byteLength(minified),
    gzip: gzipSync(minified, { level: 9 }).length,
  };
}

const bytes = (n: number): string => `${n.toLocaleString('en-US')} B`;

/** Builds every artefact of the SDK into sdk/dist; throws when /embed/v1.js is over its budget. */
export async function buildSdk(options: BuildSdkOptions = {}): Promise<SdkArtefact[]> {
  const log = options.log ?? console.log;
  const types = options.types !== false;
  if (types) rmSync(DIST, { recursive: true, force: true });
  mkdirSync(ESM, { recursive: true });
  const artefacts: SdkArtefact[] = [];

  // /embed/v1.js: only `mount` on the global object, without esbuild's module-export helpers.
  const embed = await bundle({
    stdin: {
      contents: "import { mount } from './index.ts'; (window as any).Bookmaker = { mount };",
      loader: 'ts',
      resolveDir: SDK,
      sourcefile: 'v1.ts',
    },
    format: 'iife',
    target: BROWSER_TARGET,
    outfile: join(DIST, 'v1.js'),
  });
  for (const [path, { raw, minified }] of embed) {
    writeFileSync(path, minified);
    artefacts.push(measure(path, raw, minified));
  }

  // The ES module package: readable modules (the host's bundler minifies), protocol.js kept separate.
  const esm = await bundle({
    entryPoints: [join(SDK, 'index.ts'), join(SDK, 'protocol.ts')],
    format: 'esm',
    target: 'es2020',
    outdir: ESM,
    plugins: [protocolAsModule],
  });
  for (const [path, { raw, minified }] of esm) {
    writeFileSync(path, raw);
    artefacts.push(measure(path, raw, minified));
  }

  if (types) {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', join(SDK, 'tsconfig.types.json')], { stdio: 'inherit' });
    // tsc keeps `./protocol.ts` in declarations; the package ships protocol.d.ts beside protocol.js.
    const declarations = join(ESM, 'index.d.ts');
    writeFileSync(declarations, readFileSync(declarations, 'utf8').replaceAll("'./protocol.ts'", "'./protocol.js'"));
  }

  for (const a of artefacts) {
    log(
      `${a.file.padEnd(24)} raw ${bytes(a.raw).padStart(9)}  minified ${bytes(a.minified).padStart(9)}  gzip ${bytes(a.gzip).padStart(9)}`,
    );
  }
  const v1 = artefacts[0]!;
  log(
    `${v1.file}: ${bytes(v1.minified)} minified ${v1.minified <= SDK_MAX_MINIFIED ? 'within' : 'OVER'} the ${bytes(SDK_MAX_MINIFIED)} budget; ` +
      `${bytes(v1.gzip)} gzip ${v1.gzip <= SDK_AIM_GZIP ? 'under' : 'over'} the 2 KB aim`,
  );
  if (v1.minified > SDK_MAX_MINIFIED) {
    throw new Error(`${v1.file} is ${bytes(v1.minified)} minified, over the ${bytes(SDK_MAX_MINIFIED)} budget`);
  }
  return artefacts;
}

if (import.meta.main) {
  try {
    await buildSdk();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
