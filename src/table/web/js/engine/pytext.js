// How Python writes a value inside an error message (its repr, its type's name), so that the
// browser's refusals read word for word as the Python engine's (the parity tests compare them).

// Python's repr() of a string: single quotes unless the text holds one and no double quote;
// backslashes, the quote and control characters escaped.
export function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const c of text) {
    const code = c.codePointAt(0);
    if (c === "\\" || c === quote) out += "\\" + c;
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + code.toString(16).padStart(2, "0");
    else out += c;
  }
  return quote + out + quote;
}

// The name of a value's type as Python would see the same JSON value (type(x).__name__).
export function pyTypeName(value) {
  if (value == null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}
