declare module 'css-tree/tokenizer' {
  /** Calls `onToken` with each token's type (see css-tree's tokenizer/types.js) and range. */
  export function tokenize(
    source: string,
    onToken: (type: number, start: number, end: number) => void,
  ): void;
}
