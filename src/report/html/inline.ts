// Text made safe to inline in a self-contained page: the HTML view's and the play page's.

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** JSON safe inside a script element: no "</script", no "<!--". */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Script code safe inside a script element: no "</script". */
export function scriptCode(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1");
}
