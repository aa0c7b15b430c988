import type { App } from '../../src/app.ts';

interface Operation {
  method: string;
  pattern: RegExp;
  params: number;
  /** status -> the error codes the document lists for it */
  codes: Map<number, string[]>;
}

/**
 * The error codes each operation documents, read from the app's own OpenAPI document. Every error answer a test
 * receives is checked against it, so a code the catalogue does not list for that operation fails the test.
 */
export class DocumentedErrors {
  readonly #operations: Operation[];

  constructor(app: App) {
    const document = app.http.swagger() as unknown as { paths: Record<string, Record<string, { responses: object }>> };
    this.#operations = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({
          method: method.toUpperCase(),
          pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
          params: (path.match(/\{/g) ?? []).length,
          codes: codesByStatus(operation.responses),
        })),
      )
      .sort((a, b) => a.params - b.params);
  }

  /** Throws when an error answer of a documented operation carries a code the document does not list. */
  check(method: string, path: string, response: { status: number; body: any }): void {
    if (response.status < 400) return;
    const bare = path.split('?')[0]!;
    const operation = this.#operations.find((op) => op.method === method && op.pattern.test(bare));
    if (!operation) return;
    const code = response.body?.error?.code;
    const listed = operation.codes.get(response.status) ?? [];
    if (!listed.includes(code)) {
      throw new Error(
        `${method} ${bare} answered ${response.status} ${code}, which its OpenAPI operation does not list ` +
          `(${listed.join(', ') || 'no codes'} for ${response.status})`,
      );
    }
  }
}

function codesByStatus(responses: object): Map<number, string[]> {
  const codes = new Map<number, string[]>();
  for (const [status, response] of Object.entries(responses)) {
    const schema = response.content?.['application/json']?.schema;
    const listed = schema?.properties?.error?.properties?.code?.enum;
    if (Array.isArray(listed)) codes.set(Number(status), listed);
  }
  return codes;
}
