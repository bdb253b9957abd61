export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON; otherwise the text (or null when empty). */
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as it is, instead of JSON of `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

/** A small HTTP client for tests: real requests over loopback, JSON both ways. */
export function apiClient(baseUrl: string, token?: string, defaultHeaders: Record<string, string> = {}) {
  const request = async <T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...defaultHeaders, ...options.headers };
    if (token && headers.Authorization === undefined) headers.Authorization = `Bearer ${token}`;
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
    let payload: string | undefined = options.rawBody;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const body = text && /json/.test(type) ? JSON.parse(text) : text || null;
    return { status: response.status, headers: response.headers, body: body as T, text };
  };
  return {
    request,
    get: <T = unknown>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>('POST', path, { ...options, body }),
    put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>('PUT', path, { ...options, body }),
    patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
      request<T>('PATCH', path, { ...options, body }),
    delete: <T = unknown>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
