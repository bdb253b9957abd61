import { headerComponents } from './headers';

const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

const problem = (description: string) => ({
  description,
  headers: requestIdHeader,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** `GET /v1/openapi.json`, served by the app itself (no declared route), listed with the others. */
export function selfOperation(): Record<string, unknown> {
  return {
    operationId: 'getOpenapiJson',
    summary: 'Read this OpenAPI document',
    description:
      "The OpenAPI 3.1 document of the API, made from the schemas the server validates with. Its first `servers` entry is `PUBLIC_URL` + `/v1` when the deployment sets `PUBLIC_URL`; otherwise the only entry is the relative `/v1` (the request's `Host` header is never echoed).\n\nNeeds no token.",
    tags: ['Documents'],
    security: [],
    parameters: [{ $ref: '#/components/parameters/XRequestId' }],
    responses: {
      200: {
        description: 'The document',
        headers: requestIdHeader,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['openapi', 'info', 'paths'],
              properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
              additionalProperties: true,
            },
            example: { openapi: '3.1.0', info: { title: 'Gatehouse API', version: '1.0.0' }, paths: {} },
          },
        },
      },
      431: problem('HEADERS_TOO_LARGE: the request headers are over 16 KiB in all'),
      500: problem('INTERNAL'),
    },
  };
}
