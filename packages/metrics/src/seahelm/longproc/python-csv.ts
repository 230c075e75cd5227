/**
 * Python's `csv.reader(lines, delimiter=...)` with the default excel dialect (quote char `"`,
 * doubled quotes, no escape char, not strict), over lines that carry no line terminator (a
 * `text.split("\n")`). A quoted field may run over several lines; their texts are joined without a
 * newline, as the reader does for lines without one. A bare "\r" inside an unquoted line is an
 * error, as in Python.
 */
export class PythonCsvError extends Error {}

type State = "startRecord" | "startField" | "inField" | "inQuoted" | "quoteInQuoted" | "eatCrnl";

export function readPythonCsv(lines: readonly string[], delimiter: string): string[][] {
  const rows: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let state: State = "startRecord";
  const save = () => {
    fields.push(field);
    field = "";
  };
  const EOL = null;
  const step = (c: string | null) => {
    switch (state) {
      case "startRecord":
        if (c === EOL) return;
        if (c === "\n" || c === "\r") {
          state = "eatCrnl";
          return;
        }
        state = "startField";
        step(c);
        return;
      case "startField":
        if (c === EOL || c === "\n" || c === "\r") {
          save();
          state = c === EOL ? "startRecord" : "eatCrnl";
        } else if (c === '"') {
          state = "inQuoted";
        } else if (c === delimiter) {
          save();
        } else {
          field += c;
          state = "inField";
        }
        return;
      case "inField":
        if (c === EOL || c === "\n" || c === "\r") {
          save();
          state = c === EOL ? "startRecord" : "eatCrnl";
        } else if (c === delimiter) {
          save();
          state = "startField";
        } else field += c;
        return;
      case "inQuoted":
        if (c === EOL) return;
        if (c === '"') state = "quoteInQuoted";
        else field += c;
        return;
      case "quoteInQuoted":
        if (c === '"') {
          field += '"';
          state = "inQuoted";
        } else if (c === delimiter) {
          save();
          state = "startField";
        } else if (c === EOL || c === "\n" || c === "\r") {
          save();
          state = c === EOL ? "startRecord" : "eatCrnl";
        } else {
          field += c;
          state = "inField";
        }
        return;
      case "eatCrnl":
        if (c === "\n" || c === "\r") return;
        if (c === EOL) {
          state = "startRecord";
          return;
        }
        throw new PythonCsvError("new-line character seen in unquoted field");
    }
  };
  for (const line of lines) {
    for (const c of line) step(c);
    step(EOL);
    if ((state as State) === "startRecord") {
      rows.push(fields);
      fields = [];
    }
  }
  // The input ended inside a quoted field: the non-strict reader returns what it has.
  if ((state as State) === "inQuoted") {
    save();
    rows.push(fields);
  }
  return rows;
}
