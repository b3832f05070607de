// The play page's style sheet, inlined (no fonts, no CDN). Two columns on a wide screen (the choice
// on the left; the code, the log and the shared state on the right), one column on a phone, where
// every panel keeps the full width.
export const PLAY_CSS = `
*{box-sizing:border-box}
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2330;background:#fafbfc}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px;z-index:9}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header{padding:10px 16px;background:#1d2330;color:#fff}
header .top{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:baseline;justify-content:space-between}
h1{font-size:18px;margin:0}header p{margin:4px 0;color:#d8dde8}.goal{font-size:15px;color:#fff!important;font-weight:600}
details summary{cursor:pointer;color:#9fc3ff}header .help li{color:#d8dde8}
.picker{max-width:100%;min-width:0}.picker select{max-width:min(100%,420px);font:inherit}
#lesson{margin:10px 16px 0;padding:8px 12px;background:#fff8db;border:1px solid #d9b600;border-radius:4px}
#lesson ol{margin:4px 0;padding-left:22px}#lesson li.done{color:#2d7a3a}#lesson li.done::marker{content:"✓ "}
#lesson li.now{font-weight:600}
main{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);grid-template-areas:"play code" "play log" "play state";gap:12px 16px;padding:12px 16px;align-items:start}
main>section{min-width:0}.play{grid-area:play}.code{grid-area:code}.log{grid-area:log}.state{grid-area:state}
section h2{font-size:15px;margin:8px 0}
#status{font-weight:600;margin:6px 0}
#outcome{padding:10px 12px;border-radius:6px;margin:8px 0}
#outcome.won{background:#e3f6e6;border:2px solid #2d7a3a}#outcome.won h3{color:#1c5a27}
#outcome.ended{background:#eef3ff;border:1px solid #6b8fd6}
#outcome h3{margin:0 0 6px;font-size:16px}#outcome ul{margin:4px 0;padding-left:18px}
#outcome .why{border-top:1px solid #b9dcc0;margin-top:8px;padding-top:6px}
.option{border:1px solid #b8c2d6;background:#fff;border-radius:4px;margin:4px 0}
.option.fifo{border-left:4px solid #6b8fd6}
.option button{display:block;width:100%;text-align:left;padding:6px 8px;border:0;background:none;font:inherit;color:inherit;cursor:pointer}
.option button:hover,.option button:focus{background:#eef3ff}.option button:focus{outline:2px solid #2f6fdb;outline-offset:-2px}
.option .where{font-size:12px;color:#555;padding:0 8px 6px;overflow-wrap:anywhere}
.who{font-family:ui-monospace,monospace;font-weight:600}.pending{color:#888}
#controls{display:flex;flex-wrap:wrap;gap:4px;align-items:center;margin:8px 0}
#controls button,#timing button{font:inherit;padding:3px 8px}
#controls label{white-space:nowrap}#fifo-to-ms{width:6.5em}
#timing{border:1px solid #d8dde8;border-radius:4px;padding:4px 8px;margin:6px 0}#timing h3{font-size:13px;margin:2px 0}
.knob{display:block;margin:3px 0}.knob input{width:7em}.range{color:#555;font-size:12px}
#timing-error{color:#b00;white-space:pre-wrap}
.help{color:#555;font-size:12px}#path{font:11px ui-monospace,monospace;color:#333;word-break:break-all}
#export textarea{width:100%;height:120px;font:11px ui-monospace,monospace}
#code pre{margin:0;background:#fff;border:1px solid #d8dde8;border-radius:4px;overflow-x:auto;font:12px/1.45 ui-monospace,monospace;padding:4px 0}
#code .ln{display:inline-block;width:3.5em;padding-right:.6em;text-align:right;color:#8a93a6;user-select:none}
#code .line{display:block;padding-right:8px;white-space:pre}
#code .run{background:#fff3c4}#code .at{background:#ffe08a;font-weight:600}
#code .fn{font:12px ui-monospace,monospace;margin:4px 0;overflow-wrap:anywhere}
#log{font-size:12px;max-height:320px;overflow:auto;margin:0;padding-left:2.6em;background:#fff;border:1px solid #d8dde8;border-radius:4px}
#log li{padding:2px 4px;border-bottom:1px solid #eef0f4}#log li.mine{background:#fff3c4}
#log .t{color:#555;font-family:ui-monospace,monospace}
table{border-collapse:collapse;width:100%;margin-bottom:10px}
td{border-bottom:1px solid #e3e7ee;padding:2px 6px;vertical-align:top;font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}
td:first-child{white-space:nowrap;color:#555}
@media (max-width:760px){
  main{grid-template-columns:minmax(0,1fr);grid-template-areas:"play" "code" "log" "state";padding:8px}
  header{padding:8px}td:first-child{white-space:normal}
  .picker{display:block;width:100%}.picker select{width:100%;max-width:100%}
}
`;
