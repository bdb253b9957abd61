import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI document these checks read. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: { type?: string };
  $ref?: string;
}

export interface Operation {
  operationId: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown; example?: unknown }> }
  >;
}

/** Every `METHOD /path` of the document. */
export const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );

/** A parameter, with a `$ref` to components/parameters followed. */
export function resolveParameter(document: OpenApiDocument, parameter: Parameter): Parameter {
  if (!parameter.$ref) return parameter;
  return document.components.parameters?.[parameter.$ref.slice('#/components/parameters/'.length)] as Parameter;
}

/**
 * Validates what a client would send against the document alone, as an OpenAPI-aware validator reads it:
 * the body against the request body's schema; the query string as an object of the declared parameters
 * (comma lists split, numbers read as numbers), with no other parameter allowed.
 */
export function documentValidator(document: OpenApiDocument) {
  // `#/components/schemas/X` → `#/$defs/X`, so each schema compiles on its own with the named ones beside it.
  const relinked = JSON.parse(
    JSON.stringify(document).replaceAll('#/components/schemas/', '#/$defs/'),
  ) as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compile = (schema: unknown) => ajv.compile({ $defs: relinked.components.schemas, ...(schema as object) });

  const operation = (key: string) => {
    const [method = '', path = ''] = key.split(' ');
    const found = relinked.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`The document has no ${key}`);
    return found;
  };

  return {
    /** True when the document refuses `body` as the request body of `key` (`POST /path`). */
    refusesBody(key: string, body: unknown): boolean {
      const schema = operation(key).requestBody?.content['application/json']?.schema;
      if (schema === undefined) throw new Error(`${key} takes no body`);
      return !compile(schema)(body);
    },
    /** What the document finds wrong with `body` as `key`'s response of `status` (none: it is as documented). */
    responseErrors(key: string, status: number, body: unknown): unknown[] {
      const content = operation(key).responses[String(status)]?.content ?? {};
      const schema = Object.values(content)[0]?.schema;
      if (schema === undefined) throw new Error(`${key} documents no ${status} with a body`);
      const check = compile(schema);
      return check(body) ? [] : (check.errors ?? []);
    },
    /** True when the document refuses the query string `query` for `key`. */
    refusesQuery(key: string, query: Record<string, string>): boolean {
      const parameters = (operation(key).parameters ?? [])
        .map((parameter) => resolveParameter(relinked, parameter))
        .filter((parameter) => parameter.in === 'query');
      const properties = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema]));
      const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
      const value = Object.fromEntries(
        Object.entries(query).map(([name, raw]) => {
          const type = parameters.find((parameter) => parameter.name === name)?.schema.type;
          if (type === 'array') return [name, raw.split(',')];
          if ((type === 'integer' || type === 'number') && raw.trim() !== '' && !Number.isNaN(Number(raw)))
            return [name, Number(raw)];
          return [name, raw];
        }),
      );
      return !compile({ type: 'object', properties, required, additionalProperties: false })(value);
    },
  };
}
