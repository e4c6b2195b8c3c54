// Loaded with `--import` (or imported) where a tool must work offline: a `fetch` it makes fails
// loudly, naming the URL, instead of reaching the network.
globalThis.fetch = async (input) => {
  throw new Error(`no network here: something tried to fetch ${String(input instanceof Request ? input.url : input)}`);
};
