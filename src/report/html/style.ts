// The HTML view's style sheet, inlined into the page (no network: no fonts, no CDN).
export const PAGE_CSS = `
:root { --fg:#1d2330; --muted:#6b7385; --line:#e3e6ec; --bg:#fff; --panel:#f6f7f9; --accent:#2f6fdb; --bad:#d62f2f; --label-w:240px; }
* { box-sizing: border-box; }
html, body { margin:0; height:100%; font: 12px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
body { display:flex; flex-direction:column; }
header { padding:8px 12px; border-bottom:1px solid var(--line); background:var(--panel); }
header h1 { font-size:14px; margin:0 0 4px 0; font-weight:600; }
header .sub { color:var(--muted); }
.verdict { display:inline-block; padding:1px 6px; border-radius:3px; font-weight:600; margin-right:6px; }
.verdict.ok { background:#dff3e3; color:#1c6b2c; } .verdict.bad { background:#fbe0e0; color:#9b1c1c; }
.controls { display:flex; flex-wrap:wrap; gap:6px 14px; align-items:center; margin-top:6px; }
.controls label { white-space:nowrap; }
.controls select, .controls button { font:inherit; }
.controls button { border:1px solid #c7ccd6; background:#fff; border-radius:3px; padding:1px 8px; cursor:pointer; }
.controls button.on { background:var(--accent); color:#fff; border-color:var(--accent); }
details.groups { position:relative; }
details.groups > div { position:absolute; z-index:5; background:#fff; border:1px solid var(--line); padding:6px 10px; columns:2; box-shadow:0 2px 8px rgba(0,0,0,.12); }
details.groups label { display:block; }
.violation-bar { margin-top:6px; color:var(--bad); }
.violation-bar button { color:var(--bad); border-color:var(--bad); }
.diff-bar { margin-top:6px; white-space:pre-wrap; font-family: ui-monospace, Menlo, Consolas, monospace; }
main { flex:1; display:flex; min-height:0; }
#chart-wrap { flex:1; display:flex; flex-direction:column; min-width:0; }
#axis { height:26px; flex:none; border-bottom:1px solid var(--line); }
#chart { flex:1; overflow-y:auto; overflow-x:hidden; position:relative; }
#chart svg, #axis svg { display:block; }
svg text { font-size:11px; fill:var(--fg); }
.lane-label text, .row-label text { cursor:default; }
.row-label .group { font-weight:600; fill:var(--muted); }
.lane-bg { fill:#fff; } .lane-bg.alt { fill:#fafbfc; }
.lane-dead { fill:#eceef2; }
.span rect { stroke:rgba(0,0,0,.25); stroke-width:.5; cursor:pointer; }
.span text { font-size:10px; pointer-events:none; fill:#111; }
.span.call rect { fill:#cfe0fb; } .span.activity rect { fill:#e6e0f8; } .span.record rect { fill:#fde7c4; }
.span.open rect { stroke-dasharray:3 2; }
.mark { cursor:pointer; }
.mark.noisy { opacity:.28; }
.mark-label { font-size:10px; fill:#3a4150; pointer-events:none; }
.mark.linked { stroke:#fff; stroke-width:1; }
.ring { fill:none; stroke:var(--bad); stroke-width:2; pointer-events:none; }
.stack-count { font-size:8px; font-weight:700; fill:#3a4150; pointer-events:none; }
.mark.selected, .span.selected rect { stroke:#000; stroke-width:2; }
.arrow { fill:none; stroke:#5b6b8c; stroke-width:1; opacity:.55; marker-end:url(#arrowhead); }
.arrow.violating { stroke:var(--bad); opacity:.9; }
.seg rect { stroke:#fff; stroke-width:1; cursor:pointer; }
.seg text { font-size:10px; pointer-events:none; }
.choice { stroke:#9aa3b5; stroke-width:1; }
.choice.deviation { stroke:#e0661b; stroke-width:2; }
.violation-line { stroke:var(--bad); stroke-width:1.5; stroke-dasharray:4 3; pointer-events:none; }
.violation-mark { fill:var(--bad); stroke:#fff; stroke-width:1; cursor:pointer; }
.diff-line { stroke:#8a2be2; stroke-width:1.5; stroke-dasharray:6 3; pointer-events:none; }
.cursor { stroke:#000; stroke-width:1; opacity:.5; pointer-events:none; }
.cursor-label { font-size:11px; font-weight:600; }
.section-title { font-weight:700; font-size:12px; }
aside#details { width:380px; flex:none; border-left:1px solid var(--line); background:var(--panel); overflow:auto; padding:8px 10px; }
aside#details h2 { font-size:13px; margin:0 0 6px 0; }
aside#details pre { white-space:pre-wrap; word-break:break-word; background:#fff; border:1px solid var(--line); padding:6px; font-size:11px; }
aside#details .invariant { color:var(--bad); font-weight:700; }
aside#details a { color:var(--accent); cursor:pointer; text-decoration:underline; }
aside#details ul { padding-left:16px; margin:4px 0; }
.help { color:var(--muted); }
/* Its own line, always there: the text the cursor writes never moves the timeline under the pointer. */
#cursor-text { flex-basis:100%; height:1.35em; overflow:hidden; white-space:nowrap; text-overflow:ellipsis; }
#details-toggle { display:none; }
ol.same-instant { padding-left:20px; }
@media (max-width: 760px) {
  main { flex-direction:column; }
  #chart-wrap { min-height:60vh; }
  aside#details { width:auto; border-left:0; border-top:1px solid var(--line); max-height:45vh; padding:4px 8px; }
  aside#details:not(.open) #details-body { display:none; }
  #details-toggle { display:block; width:100%; text-align:left; font:inherit; padding:4px; }
  header h1 { font-size:13px; }
}
`;
