/** Code-unit order, the same in every locale: how URIs and paths are sorted everywhere. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
