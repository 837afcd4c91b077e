// The archive's records as tables: the same rows written as CSV (RFC 4180) and as JSON, a row at a time, so a long
// table is never one string in memory.

export type Cell = string | number | boolean | null;

export interface Table {
  /** The columns in order: the CSV's header and each JSON object's keys. */
  columns: readonly string[];
  rows: readonly Record<string, Cell>[];
}

/**
 * A cell as a spreadsheet may open it safely: text that begins with = + - @ (or a tab or carriage return before one)
 * would run as a formula, so it is led by an apostrophe, which spreadsheets show as text. Numbers stay numbers.
 */
export function neutralised(value: Cell): string {
  if (value === null) return "";
  if (typeof value !== "string") return String(value);
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(value: Cell): string {
  const text = neutralised(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields: string[]) => `${fields.join(",")}\r\n`;

/** The table as CSV lines (CRLF ends each record, as RFC 4180 has it), the header first. */
export function* csvLines(table: Table): Generator<string> {
  yield csvLine(table.columns.map((column) => csvField(column)));
  for (const row of table.rows) yield csvLine(table.columns.map((column) => csvField(row[column] ?? null)));
}

/** The table as a JSON array of objects, one a line. */
export function* jsonLines(table: Table): Generator<string> {
  yield "[";
  let first = true;
  for (const row of table.rows) {
    const picked = Object.fromEntries(table.columns.map((column) => [column, row[column] ?? null]));
    yield `${first ? "" : ","}\n  ${JSON.stringify(picked)}`;
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}
