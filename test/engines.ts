/**
 * Which test files run on PostgreSQL as well as on PGlite (scripts/test.ts, the second pass when DATABASE_URL is
 * set). Every file under test/ does, unless it is named here: a file whose every assertion holds whatever engine the
 * service runs on, because what it tests never reaches SQL or reaches it only to set up (HTTP plumbing, the wallet
 * client, the CLI's words, pure rules, documents), or is PGlite's own. A new file runs on both until someone puts it
 * here, with the reason; test/engines.test.ts refuses an entry that names something that could differ (a file that
 * reads DATABASE_URL, skips on an engine, or races transactions).
 */
export const ENGINE_INDEPENDENT: Readonly<Record<string, string>> = {
  'test/architecture.test.ts': 'reads the source files',
  'test/docs.test.ts': 'reads the documents and the OpenAPI descriptions',
  'test/ops.test.ts': 'the dashboard and alert rules against the metric names a running app exposes',
  'test/cli-failures.test.ts':
    "each command runs with a database of its own naming (a PostgreSQL that does not answer, a damaged PGlite), never the suite's",
  'test/engines.test.ts': 'reads the test files and these lists',
  'test/stream/changes.test.ts': "pure rules: the stream's change messages, resuming and topic names",
  'test/stream/hub.test.ts': "the stream hub's readers and buffers, with no database",
  'test/catalog/odds.test.ts': 'pure rules: exact odds and the payout',
  'test/catalog/result-rules.test.ts': "pure rules: each market type's results from a final score",
  'test/betting/settlement-rules.test.ts': "pure rules: what a bet's results make of it, and the money owed",
  'test/wallet/delivery-rules.test.ts': 'pure rules: the delivery table and the retry rule',
  'test/wallet/review-rules.test.ts': "pure rules: an operator's actions on a held movement, a write-off's worth",
  'test/wallet/statement-format.test.ts': "pure functions: the statement's JSON and CSV forms and its totals",
  'test/platform/config.test.ts': 'configuration parsing',
  'test/platform/crypto.test.ts': 'tokens, hashes, HMAC and encryption',
  'test/platform/pglite-image.test.ts': "PGlite's own cluster image",
  'test/platform/data-directory.test.ts': "PGlite's own files in DATA_DIR",
  'test/platform/security-headers.test.ts': 'the headers of every answer',
  'test/platform/compression.test.ts': 'JSON answers compressed as they are sent, on the HTTP plumbing alone',
  'test/catalog/caching.test.ts': "the catalog reads' ETag, 304 and compression: SQL only to set up and read",
  'test/platform/router-failures.test.ts': 'answers below the routes: bad URLs, parser refusals, shutdown',
  'test/platform/request-ids.test.ts': 'request ids in headers, bodies and log lines',
  'test/platform/log-redaction.test.ts': 'what log lines may say',
  'test/platform/authorization-scheme.test.ts': 'parsing the Authorization header',
  'test/platform/guarded.test.ts': "pure functions: a guard's principal as a handler reads it, and CSV negotiation",
  'test/platform/wallet-url-rules.test.ts': 'the rules for a wallet URL',
  'test/embed/serving.test.ts': 'serving the built app and SDK',
  'test/embed/compression.test.ts': 'serving built files compressed',
  'test/seed/match-play.test.ts': "each sport's rules of play",
  'test/seed/demo-catalog.test.ts': "the demo catalog's data",
  'test/demo/casino-messages.test.ts': "the demo casino's words in each language",
  'test/demo/wallet-fault.test.ts': "the demo wallet's fault switch, on the reference wallet alone",
  'test/demo/casino-locale.test.ts': "pure rule: the demo casino's language from the browser's",
  'test/seed/live-simulator.test.ts': "the simulator's ticks, through the trading use cases",
  'test/sandbox/tour-cli.test.ts':
    "a client of the public API: the movements it drives are test/sandbox/movements.test.ts's, on both engines",
  'test/wallet/certify-cli.test.ts':
    'the certify command needs no database; the service only confirms a client, an aggregator read tested on both',
  'test/wallet/client.test.ts': 'the signed wallet client against a wallet',
  'test/wallet/transport-refusals.test.ts': 'the transport refusing addresses',
};

/** What in a file's text shows that its outcome may depend on the engine. */
export const ENGINE_DEPENDENT_MARKS = [
  'DATABASE_URL',
  'ON_POSTGRES',
  'Interleaving',
  'createPostgresDatabase',
  'FOR UPDATE',
] as const;
