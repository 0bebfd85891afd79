// Making SVG elements: the one helper the board's modules share.
export const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
