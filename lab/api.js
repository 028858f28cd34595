// The lab's JSON API, as the page calls it: a POST or GET answered with JSON (an error as its
// message), and the simulation's stream of server-sent events.

// `signal`: an AbortController's, to give up a request whose answer is no longer wanted (the server
// stops the work of a client that has gone).
export async function api(path, body, signal) {
  const response = await fetch(path, body === undefined ? { signal } : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `${path}: status ${response.status}`);
  return answer;
}


// POST /api/simulate read as server-sent events: onEvent(kind, data) for each message.
export async function streamSimulation(request, onEvent, signal) {
  const response = await fetch("/api/simulate", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request), signal,
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const message = buffer.slice(0, end); buffer = buffer.slice(end + 2);
      const kind = /^event: (.*)$/m.exec(message)?.[1], data = /^data: (.*)$/m.exec(message)?.[1];
      if (kind && data) onEvent(kind, JSON.parse(data));
    }
  }
}
