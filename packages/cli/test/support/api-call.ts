// A request to a server under test as the tests make them: JSON in and out, as an
// administrator (a bearer token) unless anonymous, the answer read whole.

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly etag: string | null;
  readonly text: string;
  readonly json: any;
}

export interface CallInit {
  readonly method?: string;
  readonly json?: unknown;
  readonly headers?: Record<string, string>;
  readonly anonymous?: boolean;
}

/** A `call(url, init)` that sends `token` as the bearer token unless `init.anonymous`. */
export function caller(token: string): (url: string, init?: CallInit) => Promise<Answer> {
  return async (url, init = {}) => {
    const res = await fetch(url, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.anonymous ? {} : { authorization: `Bearer ${token}` }),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, etag: res.headers.get('etag'), text, json: text ? JSON.parse(text) : undefined };
  };
}
