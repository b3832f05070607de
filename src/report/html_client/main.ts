// The page script of the HTML view: reads the runs' timelines from the page and draws them.
// Bundled with d3's modules into one inline script (src/cli/html_client_bundle.ts).
import { PAGE_DATA_ID } from "../html/page_data.ts";
import { Chart } from "./chart.ts";
import { readPage } from "./data.ts";
import { fitLabelColumn } from "./frame.ts";

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el;
}

fitLabelColumn(window.innerWidth);
const chart = new Chart(readPage(PAGE_DATA_ID), { header: byId("header"), axis: byId("axis"), chart: byId("chart"), details: byId("details") });
chart.mount();
// The browser test reads this mark: the timeline is on screen.
performance.mark("kubelet-sim:drawn");
