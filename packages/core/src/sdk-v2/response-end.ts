/** A `Response` whose end is observed: its body read to the end, failed, or cancelled (a listen stream whose client left). */

/** The same response, calling `ended` once when its body is over (at once when it has none). */
export function onResponseEnd(response: Response, ended: () => void): Response {
  let over = false;
  const end = () => {
    if (over) return;
    over = true;
    ended();
  };
  if (response.body === null) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          end();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
