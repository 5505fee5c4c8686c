/** Where the demo writes its transcript: one line per call. `console.log` in the CLI, an array in tests. */
export type PrintLine = (line: string) => void;

export const printToConsole: PrintLine = (line) => {
  console.log(line);
};
