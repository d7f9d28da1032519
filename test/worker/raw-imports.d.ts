/** Vite's `?raw` imports, as the workerd test bundle resolves them: the file's text. */
declare module '*?raw' {
  const text: string;
  export default text;
}
