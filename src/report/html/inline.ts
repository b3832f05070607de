// Text made safe to inline in a self-contained page, and the head both such pages open with: the
// HTML view's and the play page's.

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

/** A self-contained page's opening up to <body>: its Content-Security-Policy forbids every request. */
export function pageHead(opts: { csp: string; generator: string; title: string; css: string }): string[] {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${opts.csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="${escapeHtml(opts.generator)}">`,
    `<title>${escapeHtml(opts.title)}</title>`,
    `<style>${opts.css}</style>`,
    "</head><body>",
  ];
}
