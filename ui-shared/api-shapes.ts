import type { operations } from './generated/openapi.d.ts';

/**
 * The bodies and parameters of API operations, by operationId, from the types generated from the v1 OpenAPI document
 * (generated/openapi.d.ts, `npm run api-types`). The document names no schemas (`components.schemas` is empty), so
 * each shape is taken from an operation. Shared by the sportsbook (types.ts) and the staff console (console/).
 */
export type Operation = keyof operations;

/** The JSON body of an operation's successful answer (200, or 201 for a creation; a union when it has both). */
export type ApiResponse<Op extends Operation> = JsonOf<SuccessOf<operations[Op]['responses']>>;
/** The JSON body an operation takes. */
export type ApiRequest<Op extends Operation> = JsonOf<NonNullable<operations[Op]['requestBody']>>;
/** The query parameters an operation reads. */
export type ApiQuery<Op extends Operation> = NonNullable<operations[Op]['parameters']['query']>;

type SuccessOf<Responses> = Responses[Extract<keyof Responses, 200 | 201>];
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
