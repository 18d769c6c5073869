// A text/event-stream reader over fetch() (EventSource cannot send an Authorization header). Follows the
// HTML standard's parsing: lines end with LF or CRLF, `field: value` (one space after the colon dropped),
// `data` lines joined with LF, an empty line dispatches, lines starting with `:` are comments (heartbeats).
// A lone CR as a line end is not supported.

// Calls onEvent({event, data, id}) for each event and onActivity() for every chunk received (heartbeats
// included, so a watchdog can tell a quiet stream from a dead one). Resolves when the stream ends.
export async function readEventStream(body, { onEvent, onActivity = () => {} }) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let type = '';
  let data = [];
  let id = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onActivity();
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length) onEvent({ event: type || 'message', data: data.join('\n'), id });
        type = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const fieldValue = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = fieldValue;
      else if (field === 'data') data.push(fieldValue);
      else if (field === 'id') id = fieldValue;
    }
  }
}
