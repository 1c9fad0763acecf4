// Calls to this service. Every failure becomes an ApiError carrying the registry `code`
// of the answer (or a transport reason), so views can show it as the API said it.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function failure(response) {
  let code = `http_${response.status}`;
  let message = response.statusText || 'request failed';
  try {
    const body = await response.json();
    if (body && typeof body === 'object') {
      if (typeof body.code === 'string') code = body.code;
      const detail = body.detail ?? body.error;
      if (typeof detail === 'string') message = detail;
      else if (Array.isArray(detail) && detail[0] && typeof detail[0].msg === 'string') message = detail[0].msg;
    }
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiError(response.status, code, message);
}

/** fetch() that turns transport failures into ApiErrors too. */
export async function call(url, init = {}) {
  let response;
  try {
    response = await fetch(url, { credentials: 'omit', ...init });
  } catch (error) {
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : String(error));
  }
  return response;
}

export async function getJson(url, init = {}) {
  const response = await call(url, { ...init, headers: { accept: 'application/json', ...(init.headers ?? {}) } });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export async function postJson(url, body) {
  const response = await call(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export async function getBytes(url) {
  const response = await call(url);
  if (!response.ok) throw await failure(response);
  return new Uint8Array(await response.arrayBuffer());
}

export { failure as errorOf };

/** Shows an error (with its code) in a box, or hides the box when error is null. */
export function showError(box, error) {
  if (!error) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  box.hidden = false;
  box.textContent = '';
  const code = document.createElement('code');
  code.textContent = error instanceof ApiError ? error.code : 'client_error';
  box.append(code, document.createTextNode(`: ${error.message}`));
}
